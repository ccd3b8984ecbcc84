"""Five Triton kernels written for this repository, and their registry.

Each kernel is a plain @triton.jit function; KERNELS maps its name to a
Kernel: the function, the signature triton.compile's ASTSource takes
(argument name to Triton type, "constexpr" for the compile-time ones), the
constexprs' values (a stride of 1 among them, as the JIT specialises an
integer equal to 1), which arguments carry Triton's divisibility-by-16
specialisation (what the JIT gives a pointer or an integer that is a
multiple of 16: BaseBackend.get_int_specialization and
get_tensor_specialization, and parse_attr's ["tt.divisibility", 16], in
triton/backends/compiler.py of triton 3.9.0), and the warps. The tiles are sized so that Triton's own layout choice fits one CTA's
registers and shared memory on sm_80, sm_90 and gfx942.

    $PLANNER_ORACLE_PYTHON oracle/triton_ttgir.py   # writes testdata/triton/
"""

from dataclasses import dataclass, field

import triton
import triton.language as tl


@triton.jit
def matmul_bias_relu(a_ptr, b_ptr, bias_ptr, c_ptr, M, N, K,
                     stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """C = relu(A @ B + bias): A M x K and B K x N in f16, the sum in f32,
    bias one f32 per column of C, C written in f16."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ks = tl.arange(0, BLOCK_K)
    a_tile = a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak
    b_tile = b_ptr + ks[:, None] * stride_bk + cols[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_tile, mask=(rows[:, None] < M) & (ks[None, :] < k_left), other=0.0)
        b = tl.load(b_tile, mask=(ks[:, None] < k_left) & (cols[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_tile += BLOCK_K * stride_ak
        b_tile += BLOCK_K * stride_bk
    bias = tl.load(bias_ptr + cols, mask=cols < N, other=0.0)
    acc = tl.maximum(acc + bias[None, :], 0.0)
    c_tile = c_ptr + rows[:, None] * stride_cm + cols[None, :] * stride_cn
    tl.store(c_tile, acc.to(tl.float16), mask=(rows[:, None] < M) & (cols[None, :] < N))


@triton.jit
def softmax_rows(out_ptr, in_ptr, n_rows, n_cols, in_stride, out_stride,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """Each program normalises BLOCK_M rows of f16, each at most BLOCK_N
    long, in f32, and writes them in f16."""
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(in_ptr + rows[:, None] * in_stride + cols[None, :], mask=mask, other=-float("inf"))
    x = x.to(tl.float32)
    x = x - tl.max(x, axis=1)[:, None]
    e = tl.exp(x)
    y = e / tl.sum(e, axis=1)[:, None]
    tl.store(out_ptr + rows[:, None] * out_stride + cols[None, :], y.to(tl.float16), mask=mask)


@triton.jit
def layernorm_fwd(x_ptr, y_ptr, w_ptr, b_ptr, n_rows, n_cols, stride, eps,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """y = (x - mean) / sqrt(var + eps) * w + b over each row: BLOCK_M rows of
    f16 per program, w and b one f32 per column."""
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    col_ok = cols < n_cols
    mask = (rows[:, None] < n_rows) & col_ok[None, :]
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=1) / n_cols
    d = tl.where(mask, x - mean[:, None], 0.0)
    var = tl.sum(d * d, axis=1) / n_cols
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=col_ok, other=0.0)
    b = tl.load(b_ptr + cols, mask=col_ok, other=0.0)
    y = d * rstd[:, None] * w[None, :] + b[None, :]
    tl.store(y_ptr + rows[:, None] * stride + cols[None, :], y.to(tl.float16), mask=mask)


@triton.jit
def flash_attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, seq_len, stride_row, sm_scale,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    """One head: each program takes one BLOCK_M block of queries and runs the
    online softmax over the K/V blocks of BLOCK_N rows; Q, K, V and O are
    seq_len x HEAD_DIM in f16, rows stride_row apart."""
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    dims = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + rows[:, None] * stride_row + dims[None, :], mask=rows[:, None] < seq_len, other=0.0)
    m_i = tl.full((BLOCK_M, ), -float("inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M, ), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # log2(e): exp2 in place of exp
    for start in range(0, seq_len, BLOCK_N):
        kv_rows = start + tl.arange(0, BLOCK_N)
        kv_ok = kv_rows < seq_len
        k = tl.load(k_ptr + kv_rows[None, :] * stride_row + dims[:, None], mask=kv_ok[None, :], other=0.0)
        qk = tl.dot(q, k)
        qk = tl.where(kv_ok[None, :], qk * qk_scale, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(qk, axis=1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + kv_rows[:, None] * stride_row + dims[None, :], mask=kv_ok[:, None], other=0.0)
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + rows[:, None] * stride_row + dims[None, :], acc.to(tl.float16), mask=rows[:, None] < seq_len)


@triton.jit
def transpose_tile(in_ptr, out_ptr, M, N, in_stride, out_stride,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """out = in^T, one BLOCK_M x BLOCK_N f16 tile per program."""
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(in_ptr + rows[:, None] * in_stride + cols[None, :], mask=mask)
    tl.store(out_ptr + cols[:, None] * out_stride + rows[None, :], tl.trans(x), mask=tl.trans(mask))


@dataclass(frozen=True)
class Kernel:
    fn: object
    signature: dict
    constexprs: dict
    divisible_by_16: tuple = ()  # argument names the JIT would specialise as multiples of 16
    num_warps: int = 4
    options: dict = field(default_factory=dict)

    def source(self):
        """The ASTSource triton.compile takes (triton/compiler/compiler.py)."""
        from triton.compiler import ASTSource
        sig = dict(self.signature)
        for name in self.constexprs:
            sig[name] = "constexpr"
        names = self.fn.arg_names
        attrs = {(names.index(n), ): [["tt.divisibility", 16]] for n in self.divisible_by_16}
        return ASTSource(self.fn, sig, constexprs=dict(self.constexprs), attrs=attrs)

    def compile_options(self):
        return dict(num_warps=self.num_warps, **self.options)


KERNELS = {
    "matmul_bias_relu": Kernel(
        matmul_bias_relu,
        {"a_ptr": "*fp16", "b_ptr": "*fp16", "bias_ptr": "*fp32", "c_ptr": "*fp16", "M": "i32", "N": "i32",
         "K": "i32", "stride_am": "i32", "stride_ak": "i32", "stride_bk": "i32", "stride_bn": "i32",
         "stride_cm": "i32", "stride_cn": "i32"},
        {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "stride_ak": 1, "stride_bn": 1, "stride_cn": 1},
        divisible_by_16=("a_ptr", "b_ptr", "bias_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk",
                         "stride_cm"),
    ),
    "softmax": Kernel(
        softmax_rows,
        {"out_ptr": "*fp16", "in_ptr": "*fp16", "n_rows": "i32", "n_cols": "i32", "in_stride": "i32",
         "out_stride": "i32"},
        {"BLOCK_M": 4, "BLOCK_N": 512},
        divisible_by_16=("out_ptr", "in_ptr", "in_stride", "out_stride"),
    ),
    "layernorm": Kernel(
        layernorm_fwd,
        {"x_ptr": "*fp16", "y_ptr": "*fp16", "w_ptr": "*fp32", "b_ptr": "*fp32", "n_rows": "i32",
         "n_cols": "i32", "stride": "i32", "eps": "fp32"},
        {"BLOCK_M": 8, "BLOCK_N": 256},
        divisible_by_16=("x_ptr", "y_ptr", "w_ptr", "b_ptr", "stride"),
    ),
    "flash_attention": Kernel(
        flash_attention_fwd,
        {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16", "seq_len": "i32",
         "stride_row": "i32", "sm_scale": "fp32"},
        {"BLOCK_M": 64, "BLOCK_N": 64, "HEAD_DIM": 64},
        divisible_by_16=("q_ptr", "k_ptr", "v_ptr", "o_ptr", "seq_len", "stride_row"),
    ),
    "transpose": Kernel(
        transpose_tile,
        {"in_ptr": "*fp16", "out_ptr": "*fp16", "M": "i32", "N": "i32", "in_stride": "i32", "out_stride": "i32"},
        {"BLOCK_M": 64, "BLOCK_N": 64},
        divisible_by_16=("in_ptr", "out_ptr", "M", "N", "in_stride", "out_stride"),
    ),
}
