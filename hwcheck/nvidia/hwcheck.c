/*
 * hwcheck: measures, on an NVIDIA GPU of compute capability 9.0 or later,
 * where the warp-level matrix instructions put the elements of their
 * fragments. It needs only the driver's libcuda.so.1 (opened with dlopen):
 * every kernel is PTX text made here and compiled by the driver's JIT
 * (cuModuleLoadDataEx), so no CUDA toolkit is needed to build or run it.
 *
 * It reads no record of the planner: what it writes is raw measurement,
 * which intrinsics/hardware_test.go holds against the records.
 *
 *   cc -O2 -std=c11 -o hwcheck hwcheck.c -ldl
 *   ./hwcheck OUTFILE [DATE]          run everything, write OUTFILE
 *   ./hwcheck --ptx DIR               write each kernel's PTX to DIR, run nothing
 *
 * The output format is described in README.md beside this file.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the driver API, declared here (CUDA Driver API reference) ---- */
typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef void *CUmodule;
typedef void *CUfunction;
typedef unsigned long long CUdeviceptr;

static CUresult (*cuInit)(unsigned);
static CUresult (*cuDriverGetVersion)(int *);
static CUresult (*cuDeviceGet)(CUdevice *, int);
static CUresult (*cuDeviceGetName)(char *, int, CUdevice);
static CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
static CUresult (*cuCtxCreate)(CUcontext *, unsigned, CUdevice);
static CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
static CUresult (*cuModuleUnload)(CUmodule);
static CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
static CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
static CUresult (*cuMemFree)(CUdeviceptr);
static CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
static CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
static CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                                  unsigned, unsigned, void *, void **, void **);
static CUresult (*cuCtxSynchronize)(void);
static CUresult (*cuGetErrorString)(CUresult, const char **);

enum {
	CU_JIT_ERROR_LOG_BUFFER = 5,
	CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
};

static FILE *out;        /* the measurement file */
static const char *ptxdir; /* --ptx: write PTX here, run nothing */
static int failures;

static void die(const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static const char *errstr(CUresult r) {
	const char *s = 0;
	if (cuGetErrorString && cuGetErrorString(r, &s) == 0 && s)
		return s;
	return "unknown error";
}

static void *sym(void *lib, const char *name) {
	void *p = dlsym(lib, name);
	if (!p)
		die("libcuda.so.1 has no %s", name);
	return p;
}

static void opendriver(void) {
	void *lib = dlopen("libcuda.so.1", RTLD_NOW);
	if (!lib)
		die("cannot open libcuda.so.1: %s", dlerror());
	*(void **)&cuInit = sym(lib, "cuInit");
	*(void **)&cuDriverGetVersion = sym(lib, "cuDriverGetVersion");
	*(void **)&cuDeviceGet = sym(lib, "cuDeviceGet");
	*(void **)&cuDeviceGetName = sym(lib, "cuDeviceGetName");
	*(void **)&cuDeviceGetAttribute = sym(lib, "cuDeviceGetAttribute");
	*(void **)&cuCtxCreate = sym(lib, "cuCtxCreate_v2");
	*(void **)&cuModuleLoadDataEx = sym(lib, "cuModuleLoadDataEx");
	*(void **)&cuModuleUnload = sym(lib, "cuModuleUnload");
	*(void **)&cuModuleGetFunction = sym(lib, "cuModuleGetFunction");
	*(void **)&cuMemAlloc = sym(lib, "cuMemAlloc_v2");
	*(void **)&cuMemFree = sym(lib, "cuMemFree_v2");
	*(void **)&cuMemcpyHtoD = sym(lib, "cuMemcpyHtoD_v2");
	*(void **)&cuMemcpyDtoH = sym(lib, "cuMemcpyDtoH_v2");
	*(void **)&cuLaunchKernel = sym(lib, "cuLaunchKernel");
	*(void **)&cuCtxSynchronize = sym(lib, "cuCtxSynchronize");
	*(void **)&cuGetErrorString = sym(lib, "cuGetErrorString");
}

#define CHECK(call)                                                              \
	do {                                                                     \
		CUresult r_ = (call);                                            \
		if (r_)                                                          \
			die("%s:%d: %s: error %d (%s)", __FILE__, __LINE__, #call, r_, \
			    errstr(r_));                                         \
	} while (0)

/* ---- PTX text ---- */
static char ptx[1 << 16];
static size_t ptxlen;

static void emit(const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	ptxlen += vsnprintf(ptx + ptxlen, sizeof ptx - ptxlen, fmt, ap);
	va_end(ap);
	if (ptxlen >= sizeof ptx)
		die("PTX text too long");
}

static void header(const char *version) {
	ptxlen = 0;
	emit(".version %s\n.target sm_90\n.address_size 64\n\n", version);
}

/* Kernel parameters are .u64 global pointers p0..p<n-1>; begin converts
 * them to global addresses %g0..%g<n-1> and sets %ln to %tid.x and %wp to
 * %ctaid.x. entry opens the kernel and declares the common registers; the
 * caller declares its own before calling begin. */
static int nparams;

static void entry(int params) {
	nparams = params;
	emit(".visible .entry k(");
	for (int i = 0; i < params; i++)
		emit("%s.param .u64 p%d", i ? ", " : "", i);
	emit(")\n{\n");
	emit("\t.reg .b64 %%g<%d>;\n\t.reg .b64 %%q<8>;\n\t.reg .b32 %%r<16>;\n", params);
	emit("\t.reg .b32 %%ln, %%wp;\n");
}

static void begin(void) {
	for (int i = 0; i < nparams; i++) {
		emit("\tld.param.u64 %%g%d, [p%d];\n", i, i);
		emit("\tcvta.to.global.u64 %%g%d, %%g%d;\n", i, i);
	}
	emit("\tmov.u32 %%ln, %%tid.x;\n\tmov.u32 %%wp, %%ctaid.x;\n");
}

/* %q0 = %g<g> + 4 * (index register idx) * stride */
static void addr(int q, int g, const char *idx, int stride) {
	emit("\tmul.wide.u32 %%q%d, %s, %d;\n", q, idx, 4 * stride);
	emit("\tadd.u64 %%q%d, %%q%d, %%g%d;\n", q, q, g);
}

/* Copies words 32-bit words from global %g<g> to shared sm, each lane a
 * strided share, then waits for the warp. */
static void fillshared(int g, int words) {
	for (int j = 0; j < words / 32; j++) {
		emit("\tadd.u32 %%r1, %%ln, %d;\n", 32 * j);
		addr(0, g, "%r1", 1);
		emit("\tld.global.b32 %%r2, [%%q0];\n");
		emit("\tshl.b32 %%r3, %%r1, 2;\n\tadd.u32 %%r3, %%r3, %%r0;\n");
		emit("\tst.shared.b32 [%%r3], %%r2;\n");
	}
	emit("\tbar.sync 0;\n");
}

/* The reverse: shared sm to global %g<g>. */
static void dumpshared(int g, int words) {
	emit("\tbar.sync 0;\n");
	for (int j = 0; j < words / 32; j++) {
		emit("\tadd.u32 %%r1, %%ln, %d;\n", 32 * j);
		emit("\tshl.b32 %%r3, %%r1, 2;\n\tadd.u32 %%r3, %%r3, %%r0;\n");
		emit("\tld.shared.b32 %%r2, [%%r3];\n");
		addr(0, g, "%r1", 1);
		emit("\tst.global.b32 [%%q0], %%r2;\n");
	}
}

/* %r4 = sm + the byte offset that lane gives, read from %g<g>[base + lane]. */
static void rowaddr(int g, int base) {
	emit("\tadd.u32 %%r1, %%ln, %d;\n", base);
	addr(1, g, "%r1", 1);
	emit("\tld.global.u32 %%r4, [%%q1];\n\tadd.u32 %%r4, %%r4, %%r0;\n");
}

static CUmodule module;
static CUfunction kernel;
static int loaded;

/* Compiles the PTX text made so far; with --ptx, writes it instead. */
static int build(const char *name) {
	if (ptxdir) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s.ptx", ptxdir, name);
		FILE *f = fopen(path, "w");
		if (!f)
			die("cannot write %s", path);
		fwrite(ptx, 1, ptxlen, f);
		fclose(f);
		return 0;
	}
	if (loaded)
		cuModuleUnload(module);
	loaded = 0;
	static char log[16384];
	log[0] = 0;
	int opt[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
	void *val[2] = {log, (void *)(uintptr_t)sizeof log};
	CUresult r = cuModuleLoadDataEx(&module, ptx, 2, opt, val);
	if (r) {
		for (char *p = log; *p; p++)
			if (*p == '\n')
				*p = ' ';
		fprintf(out, "error %s jit %d %s: %s\n", name, r, errstr(r), log);
		fprintf(stderr, "%s: JIT failed: %s\n", name, log);
		failures++;
		return 0;
	}
	loaded = 1;
	CHECK(cuModuleGetFunction(&kernel, module, "k"));
	return 1;
}

/* Closes the kernel and compiles it. */
static int finish(const char *name) {
	emit("\tret;\n}\n");
	return build(name);
}

/* Fills a shared-memory image with the poison value 0xEEEE. */
static void poison(uint16_t *image, int n) {
	for (int i = 0; i < n; i++)
		image[i] = 0xEEEE;
}

static CUdeviceptr dev(const void *host, size_t bytes) {
	CUdeviceptr p;
	CHECK(cuMemAlloc(&p, bytes));
	if (host)
		CHECK(cuMemcpyHtoD(p, host, bytes));
	return p;
}

static int launch(const char *name, int blocks, CUdeviceptr *p, int n) {
	void *args[8];
	for (int i = 0; i < n; i++)
		args[i] = &p[i];
	CUresult r = cuLaunchKernel(kernel, blocks, 1, 1, 32, 1, 1, 0, 0, args, 0);
	if (!r)
		r = cuCtxSynchronize();
	if (r) {
		fprintf(out, "error %s launch %d %s\n", name, r, errstr(r));
		fprintf(stderr, "%s: launch failed: %s\n", name, errstr(r));
		failures++;
		/* a failed launch leaves the context unusable */
		fflush(out);
		exit(2);
	}
	return 1;
}

static void fetch(void *host, CUdeviceptr p, size_t bytes) { CHECK(cuMemcpyDtoH(host, p, bytes)); }

static void release(CUdeviceptr *p, int n) {
	for (int i = 0; i < n; i++)
		cuMemFree(p[i]);
}

/* ---- ldmatrix and stmatrix ----
 * Shared memory holds 64 rows of 16 bytes. Row idx = 8 * matrix + row of the
 * matrices the instruction moves lies at buffer row (13 * idx + 7) % 64, so
 * consecutive rows are never adjacent; the other rows are spare. Lanes whose
 * address the PTX ISA says is unused (8 * matrices and up) point at a spare
 * row of their own, which must come back untouched. */
static int placed(int idx) { return (13 * idx + 7) % 64; }

static void rowoffsets(uint32_t *off, int matrices) {
	int used[64] = {0};
	for (int l = 0; l < 8 * matrices; l++)
		used[placed(l)] = 1;
	int spare = 0;
	for (int l = 0; l < 32; l++) {
		if (l < 8 * matrices) {
			off[l] = 16 * placed(l);
			continue;
		}
		while (used[spare])
			spare++;
		off[l] = 16 * spare++;
	}
}

/* Opens the kernel of ldmatrix or stmatrix (op) on matrices matrices,
 * .trans or not, with params pointer parameters, registers %x0.. for the
 * matrices, and shared memory filled from p0; names the case and its
 * instruction. */
static void matrixkernel(const char *op, int matrices, int trans, int params, char *name, char *instr) {
	snprintf(name, 64, "%s_x%d%s", op, matrices, trans ? "_trans" : "");
	snprintf(instr, 128, "%s.sync.aligned.m8n8.x%d%s.shared.b16", op, matrices, trans ? ".trans" : "");
	header("7.8");
	emit(".shared .align 16 .b8 sm[1024];\n\n");
	entry(params);
	emit("\t.reg .b32 %%x<%d>;\n", matrices);
	begin();
	emit("\tmov.u32 %%r0, sm;\n");
	fillshared(0, 256);
}

/* An element of a loaded matrix: 0x1000 | matrix << 6 | row << 3 | col. */
static void loadcase(int matrices, int trans) {
	char name[64], instr[128];
	/* p0: shared image, p1: row offsets, p2: registers out */
	matrixkernel("ldmatrix", matrices, trans, 3, name, instr);
	rowaddr(1, 0);
	emit("\t%s {", instr);
	for (int i = 0; i < matrices; i++)
		emit("%s%%x%d", i ? ", " : "", i);
	emit("}, [%%r4];\n");
	addr(2, 2, "%ln", matrices);
	for (int i = 0; i < matrices; i++)
		emit("\tst.global.b32 [%%q2+%d], %%x%d;\n", 4 * i, i);
	if (!finish(name))
		return;

	uint16_t image[512];
	poison(image, 512);
	for (int idx = 0; idx < 8 * matrices; idx++)
		for (int c = 0; c < 8; c++)
			image[8 * placed(idx) + c] = 0x1000 | (idx / 8) << 6 | (idx % 8) << 3 | c;
	uint32_t off[32], regs[32 * 4];
	rowoffsets(off, matrices);
	CUdeviceptr p[3] = {dev(image, sizeof image), dev(off, sizeof off), dev(0, sizeof regs)};
	launch(name, 1, p, 3);
	fetch(regs, p[2], 4 * 32 * matrices);
	release(p, 3);
	fprintf(out, "load %s %s\n", name, instr);
	for (int l = 0; l < 32; l++) {
		fprintf(out, "lane %d", l);
		for (int i = 0; i < matrices; i++)
			fprintf(out, " %08x", regs[l * matrices + i]);
		fprintf(out, "\n");
	}
	fprintf(out, "end\n\n");
}

/* Register i of lane l holds, in half h, 0x2000 | l << 3 | i << 1 | h. */
static void storecase(int matrices, int trans) {
	char name[64], instr[128];
	/* p0: shared image, p1: row offsets, p2: registers in, p3: shared out */
	matrixkernel("stmatrix", matrices, trans, 4, name, instr);
	addr(2, 2, "%ln", matrices);
	for (int i = 0; i < matrices; i++)
		emit("\tld.global.b32 %%x%d, [%%q2+%d];\n", i, 4 * i);
	rowaddr(1, 0);
	emit("\t%s [%%r4], {", instr);
	for (int i = 0; i < matrices; i++)
		emit("%s%%x%d", i ? ", " : "", i);
	emit("};\n");
	dumpshared(3, 256);
	if (!finish(name))
		return;

	uint16_t image[512], back[512];
	poison(image, 512);
	uint32_t off[32], regs[32 * 4];
	rowoffsets(off, matrices);
	for (int l = 0; l < 32; l++)
		for (int i = 0; i < matrices; i++)
			regs[l * matrices + i] = (uint32_t)(0x2000 | l << 3 | i << 1) |
			                         (uint32_t)(0x2000 | l << 3 | i << 1 | 1) << 16;
	CUdeviceptr p[4] = {dev(image, sizeof image), dev(off, sizeof off),
	                    dev(regs, 4 * 32 * matrices), dev(0, sizeof back)};
	launch(name, 1, p, 4);
	fetch(back, p[3], sizeof back);
	release(p, 4);
	fprintf(out, "store %s %s\n", name, instr);
	int isrow[64] = {0};
	for (int idx = 0; idx < 8 * matrices; idx++) {
		isrow[placed(idx)] = 1;
		fprintf(out, "row %d %d", idx / 8, idx % 8);
		for (int c = 0; c < 8; c++)
			fprintf(out, " %04x", back[8 * placed(idx) + c]);
		fprintf(out, "\n");
	}
	int touched = 0;
	for (int r = 0; r < 64; r++)
		for (int c = 0; c < 8; c++)
			if (!isrow[r] && back[8 * r + c] != 0xEEEE)
				touched++;
	fprintf(out, "spare_written %d\nend\n\n", touched);
}

/* ---- mma.sync ---- */
enum { F16, BF16, TF32, E4M3, E5M2, S8, F32, S32 };
static const int bits[] = {16, 16, 32, 8, 8, 8, 32, 32};

struct mma {
	const char *record, *instr, *version;
	int m, n, k, a, b, c; /* c is also D's type */
};

static const struct mma mmas[] = {
	{"mma_m16n8k16_f32_f16", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "7.8", 16, 8, 16, F16, F16, F32},
	{"mma_m16n8k16_f16_f16", "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", "7.8", 16, 8, 16, F16, F16, F16},
	{"mma_m16n8k16_f32_bf16", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "7.8", 16, 8, 16, BF16, BF16, F32},
	{"mma_m16n8k8_f32_f16", "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", "7.8", 16, 8, 8, F16, F16, F32},
	{"mma_m16n8k8_f32_tf32", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", "7.8", 16, 8, 8, TF32, TF32, F32},
	{"mma_m16n8k32_s32_s8", "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", "7.8", 16, 8, 32, S8, S8, S32},
	{"mma_m16n8k32_f32_e4m3_e4m3", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", "8.4", 16, 8, 32, E4M3, E4M3, F32},
	{"mma_m16n8k32_f32_e4m3_e5m2", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32", "8.4", 16, 8, 32, E4M3, E5M2, F32},
	{"mma_m16n8k32_f32_e5m2_e4m3", "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32", "8.4", 16, 8, 32, E5M2, E4M3, F32},
	{"mma_m16n8k32_f32_e5m2_e5m2", "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32", "8.4", 16, 8, 32, E5M2, E5M2, F32},
	{"mma_m16n8k32_f16_e4m3_e4m3", "mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16", "8.7", 16, 8, 32, E4M3, E4M3, F16},
	{"mma_m16n8k32_f16_e4m3_e5m2", "mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16", "8.7", 16, 8, 32, E4M3, E5M2, F16},
	{"mma_m16n8k32_f16_e5m2_e4m3", "mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e4m3.f16", "8.7", 16, 8, 32, E5M2, E4M3, F16},
	{"mma_m16n8k32_f16_e5m2_e5m2", "mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e5m2.f16", "8.7", 16, 8, 32, E5M2, E5M2, F16},
};

/* The bits of a small integer v (|v| <= 32, exact in every type here). */
static uint32_t encode(int type, int v) {
	if (type == S8)
		return (uint32_t)(v & 0xff);
	if (type == S32)
		return (uint32_t)v;
	float f = (float)v;
	uint32_t x;
	memcpy(&x, &f, 4);
	if (type == F32 || type == TF32)
		return x;
	if (type == BF16)
		return x >> 16;
	if (v == 0)
		return 0;
	uint32_t s = x >> 31, e = (x >> 23) & 0xff, m = x & 0x7fffff;
	switch (type) {
	case F16:
		return s << 15 | (e - 127 + 15) << 10 | m >> 13;
	case E4M3:
		return s << 7 | (e - 127 + 7) << 3 | m >> 20;
	case E5M2:
		return s << 7 | (e - 127 + 15) << 2 | m >> 21;
	}
	die("no encoding for type %d", type);
	return 0;
}

/* The value of accumulator bits in type f32, f16 or s32; 1e9 for what no
 * small integer code gives. */
static double decode(int type, uint32_t x) {
	if (type == S32)
		return (int32_t)x;
	if (type == F32) {
		float f;
		memcpy(&f, &x, 4);
		return f;
	}
	uint32_t s = x >> 15 & 1, e = x >> 10 & 0x1f, m = x & 0x3ff;
	if (e == 0 && m == 0)
		return s ? -0.0 : 0.0;
	if (e == 0 || e == 31)
		return 1e9;
	double v = (1 + m / 1024.0) * (double)(1u << e) / (double)(1u << 15);
	return s ? -v : v;
}

struct shape {
	int va, vb, vc;    /* values per lane */
	int ra, rb, rc;    /* 32-bit registers per lane */
	int words;         /* input words per lane: A, B, C */
};

static struct shape shapeof(const struct mma *x) {
	struct shape s;
	s.va = x->m * x->k / 32;
	s.vb = x->k * x->n / 32;
	s.vc = x->m * x->n / 32;
	s.ra = s.va * bits[x->a] / 32;
	s.rb = s.vb * bits[x->b] / 32;
	s.rc = s.vc * bits[x->c] / 32;
	s.words = s.ra + s.rb + s.rc;
	return s;
}

/* Places value v of a lane's operand (values packed from the low bits of
 * register 0 up) into its registers. */
static void put(uint32_t *regs, int type, int v, uint32_t code) {
	int b = bits[type], per = 32 / b;
	uint32_t mask = b == 32 ? 0xffffffffu : (1u << b) - 1;
	regs[v / per] |= (code & mask) << (b * (v % per));
}

static uint32_t get(const uint32_t *regs, int type, int v) {
	int b = bits[type], per = 32 / b;
	uint32_t mask = b == 32 ? 0xffffffffu : (1u << b) - 1;
	return regs[v / per] >> (b * (v % per)) & mask;
}

static const char *regtype(int type) {
	return type == F32 ? "f32" : type == S32 ? "s32" : "b32";
}

static void regs(const char *prefix, int n, const char *sep) {
	emit("{");
	for (int i = 0; i < n; i++)
		emit("%s%%%s%d", i ? ", " : "", prefix, i);
	emit("}%s", sep);
}

/* One warp per block; block w reads its lanes' A, B and C registers from
 * p0[(32 w + lane) * words ...] and writes D to p1[(32 w + lane) * rc ...]. */
static void mmakernel(const struct mma *x, struct shape s) {
	header(x->version);
	entry(2);
	emit("\t.reg .b32 %%a<%d>, %%b<%d>;\n", s.ra, s.rb);
	emit("\t.reg .%s %%c<%d>, %%d<%d>;\n", regtype(x->c), s.rc, s.rc);
	begin();
	emit("\tmad.lo.u32 %%r1, %%wp, 32, %%ln;\n");
	addr(0, 0, "%r1", s.words);
	addr(1, 1, "%r1", s.rc);
	int w = 0;
	for (int i = 0; i < s.ra; i++, w++)
		emit("\tld.global.b32 %%a%d, [%%q0+%d];\n", i, 4 * w);
	for (int i = 0; i < s.rb; i++, w++)
		emit("\tld.global.b32 %%b%d, [%%q0+%d];\n", i, 4 * w);
	for (int i = 0; i < s.rc; i++, w++)
		emit("\tld.global.%s %%c%d, [%%q0+%d];\n", regtype(x->c), i, 4 * w);
	emit("\t%s ", x->instr);
	regs("d", s.rc, ", ");
	regs("a", s.ra, ", ");
	regs("b", s.rb, ", ");
	regs("c", s.rc, ";\n");
	for (int i = 0; i < s.rc; i++)
		emit("\tst.global.%s [%%q1+%d], %%d%d;\n", regtype(x->c), 4 * i, i);
	emit("\tret;\n}\n");
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static int small(int lo, int hi) {
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return lo + (int)(rng % (uint64_t)(hi - lo + 1));
}

/* Sixteen positive integers exact in every input and accumulator type
 * (e5m2 has two fraction bits): the code of a B value's nibble. */
static const int nibble[16] = {1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32};

static int nibbleof(double v) {
	for (int i = 0; i < 16; i++)
		if (v == nibble[i])
			return i;
	return -1;
}

#define RANDOM_CASES 2

static void mmacase(const struct mma *x) {
	struct shape s = shapeof(x);
	mmakernel(x, s);
	if (!build(x->record))
		return;

	/* Random: A and B in [-3, 3], C in [-8, 8], every value exact. */
	int lanes = 32 * RANDOM_CASES;
	uint32_t *in = calloc((size_t)lanes * s.words, 4), *d = calloc((size_t)lanes * s.rc, 4);
	for (int l = 0; l < lanes; l++) {
		uint32_t *r = in + (size_t)l * s.words;
		for (int v = 0; v < s.va; v++)
			put(r, x->a, v, encode(x->a, small(-3, 3)));
		for (int v = 0; v < s.vb; v++)
			put(r + s.ra, x->b, v, encode(x->b, small(-3, 3)));
		for (int v = 0; v < s.vc; v++)
			put(r + s.ra + s.rb, x->c, v, encode(x->c, small(-8, 8)));
	}
	CUdeviceptr p[2] = {dev(in, 4 * (size_t)lanes * s.words), dev(0, 4 * (size_t)lanes * s.rc)};
	launch(x->record, RANDOM_CASES, p, 2);
	fetch(d, p[1], 4 * (size_t)lanes * s.rc);
	release(p, 2);
	for (int w = 0; w < RANDOM_CASES; w++) {
		fprintf(out, "random %s %s\n", x->record, x->instr);
		for (int l = 0; l < 32; l++) {
			uint32_t *r = in + (size_t)(32 * w + l) * s.words;
			fprintf(out, "lane %d a", l);
			for (int i = 0; i < s.ra; i++)
				fprintf(out, " %08x", r[i]);
			fprintf(out, " b");
			for (int i = 0; i < s.rb; i++)
				fprintf(out, " %08x", r[s.ra + i]);
			fprintf(out, " c");
			for (int i = 0; i < s.rc; i++)
				fprintf(out, " %08x", r[s.ra + s.rb + i]);
			fprintf(out, " d");
			for (int i = 0; i < s.rc; i++)
				fprintf(out, " %08x", d[(size_t)(32 * w + l) * s.rc + i]);
			fprintf(out, "\n");
		}
		fprintf(out, "end\n\n");
	}
	free(in);
	free(d);

	/* One-hot: block (pass, i) holds 1 in A value slot i (lane i / va,
	 * value i % va) and 0 elsewhere, B value slot j (lane j / vb, value
	 * j % vb) holds nibble[j & 15] in pass 0 and nibble[j >> 4] in pass 1,
	 * C is 0. Then D holds, in the slots of A's row, the B values of A's
	 * column: each D slot names one B slot, or none. */
	int slots = 32 * s.va, blocks = 2 * slots;
	in = calloc((size_t)blocks * 32 * s.words, 4);
	d = calloc((size_t)blocks * 32 * s.rc, 4);
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < slots; i++) {
			uint32_t *blk = in + (size_t)(pass * slots + i) * 32 * s.words;
			put(blk + (size_t)(i / s.va) * s.words, x->a, i % s.va, encode(x->a, 1));
			for (int j = 0; j < 32 * s.vb; j++) {
				int code = nibble[pass ? j >> 4 : j & 15];
				put(blk + (size_t)(j / s.vb) * s.words + s.ra, x->b, j % s.vb, encode(x->b, code));
			}
		}
	CUdeviceptr q[2] = {dev(in, 4 * (size_t)blocks * 32 * s.words), dev(0, 4 * (size_t)blocks * 32 * s.rc)};
	launch(x->record, blocks, q, 2);
	fetch(d, q[1], 4 * (size_t)blocks * 32 * s.rc);
	release(q, 2);
	fprintf(out, "onehot %s %s\n", x->record, x->instr);
	int odd = 0;
	for (int i = 0; i < slots; i++)
		for (int l = 0; l < 32; l++)
			for (int v = 0; v < s.vc; v++) {
				double lo = decode(x->c, get(d + ((size_t)i * 32 + l) * s.rc, x->c, v));
				double hi = decode(x->c, get(d + ((size_t)(slots + i) * 32 + l) * s.rc, x->c, v));
				if (lo == 0 && hi == 0)
					continue;
				int a = nibbleof(lo), b = nibbleof(hi);
				if (a < 0 || b < 0) {
					fprintf(out, "odd %d %d %g %g\n", i, l * s.vc + v, lo, hi);
					odd++;
					continue;
				}
				fprintf(out, "t %d %d %d\n", i, b << 4 | a, l * s.vc + v);
			}
	fprintf(out, "end\n\n");
	if (odd)
		failures++;
	free(in);
	free(d);
}

/* ---- chains through memory ----
 * chain16: A (16x16 f16, row-major, 32-byte rows) by ldmatrix x4, B (16x8 f16
 * stored K-major: row k holds B[k][0..7], 16-byte rows) by ldmatrix x2
 * .trans, then mma m16n8k16 with an f32 and with an f16 accumulator (C = 0);
 * the f16 D goes back to memory by stmatrix x2 (row-major 16x8). Lane l
 * points at: A row (l % 8) + 8 * ((l / 8) & 1), column 8 * (l / 16) (matrix
 * l / 8 is a0a1, a2a3, a4a5, a6a7 of the fragment); B row l % 16; D row
 * l % 16.
 * chain8: A (16x8) by ldmatrix x2 (lane l: row l % 16), B (8x8, K-major) by
 * ldmatrix x1 .trans (row l % 8), mma m16n8k8 with an f32 accumulator. */
static void chaincase(int k) {
	const char *name = k == 16 ? "chain16" : "chain8";
	header("7.8");
	emit(".shared .align 16 .b8 sm[1024];\n\n");
	entry(4); /* p0: shared image, p1: lane offsets (A, B, D), p2: registers out, p3: shared out */
	emit("\t.reg .b32 %%a<4>, %%b<2>, %%h<2>;\n\t.reg .f32 %%d<4>, %%z;\n");
	begin();
	emit("\tmov.u32 %%r0, sm;\n\tmov.f32 %%z, 0f00000000;\n\tmov.b32 %%r5, 0;\n");
	fillshared(0, 256);
	rowaddr(1, 0);
	if (k == 16) {
		emit("\tldmatrix.sync.aligned.m8n8.x4.shared.b16 {%%a0, %%a1, %%a2, %%a3}, [%%r4];\n");
		rowaddr(1, 32);
		emit("\tldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%%b0, %%b1}, [%%r4];\n");
		emit("\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%%d0, %%d1, %%d2, %%d3}, "
		     "{%%a0, %%a1, %%a2, %%a3}, {%%b0, %%b1}, {%%z, %%z, %%z, %%z};\n");
		emit("\tmma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%%h0, %%h1}, "
		     "{%%a0, %%a1, %%a2, %%a3}, {%%b0, %%b1}, {%%r5, %%r5};\n");
		rowaddr(1, 64);
		emit("\tstmatrix.sync.aligned.m8n8.x2.shared.b16 [%%r4], {%%h0, %%h1};\n");
	} else {
		emit("\tldmatrix.sync.aligned.m8n8.x2.shared.b16 {%%a0, %%a1}, [%%r4];\n");
		rowaddr(1, 32);
		emit("\tldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%%b0}, [%%r4];\n");
		emit("\tmma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%%d0, %%d1, %%d2, %%d3}, "
		     "{%%a0, %%a1}, {%%b0}, {%%z, %%z, %%z, %%z};\n");
	}
	addr(2, 2, "%ln", 4);
	for (int i = 0; i < 4; i++)
		emit("\tst.global.f32 [%%q2+%d], %%d%d;\n", 4 * i, i);
	dumpshared(3, 256);
	if (!finish(name))
		return;

	/* Shared image: A at byte 0 (16 rows of 2k bytes), B at byte 512 (k rows
	 * of 16 bytes), D at byte 768 (16 rows of 16 bytes), 0xEEEE elsewhere. */
	uint16_t image[512], back[512];
	poison(image, 512);
	for (int r = 0; r < 16; r++)
		for (int c = 0; c < k; c++)
			image[r * k + c] = (uint16_t)encode(F16, small(-3, 3));
	for (int r = 0; r < k; r++)
		for (int c = 0; c < 8; c++)
			image[256 + r * 8 + c] = (uint16_t)encode(F16, small(-3, 3));
	uint32_t off[96], regsout[128];
	for (int l = 0; l < 32; l++) {
		if (k == 16)
			off[l] = 32 * ((l % 8) + 8 * ((l / 8) & 1)) + 16 * (l / 16);
		else
			off[l] = 16 * (l % 16);
		off[32 + l] = 512 + 16 * (l % k);
		off[64 + l] = 768 + 16 * (l % 16);
	}
	CUdeviceptr p[4] = {dev(image, sizeof image), dev(off, sizeof off), dev(0, sizeof regsout),
	                    dev(0, sizeof back)};
	launch(name, 1, p, 4);
	fetch(regsout, p[2], sizeof regsout);
	fetch(back, p[3], sizeof back);
	release(p, 4);
	fprintf(out, "chain %s %s\n", name,
	        k == 16 ? "mma_m16n8k16_f32_f16 mma_m16n8k16_f16_f16" : "mma_m16n8k8_f32_f16");
	for (int r = 0; r < 16; r++) {
		fprintf(out, "arow %d", r);
		for (int c = 0; c < k; c++)
			fprintf(out, " %04x", image[r * k + c]);
		fprintf(out, "\n");
	}
	for (int r = 0; r < k; r++) {
		fprintf(out, "brow %d", r);
		for (int c = 0; c < 8; c++)
			fprintf(out, " %04x", image[256 + r * 8 + c]);
		fprintf(out, "\n");
	}
	for (int l = 0; l < 32; l++) {
		fprintf(out, "lane %d d", l);
		for (int i = 0; i < 4; i++)
			fprintf(out, " %08x", regsout[4 * l + i]);
		fprintf(out, "\n");
	}
	if (k == 16)
		for (int r = 0; r < 16; r++) {
			fprintf(out, "drow %d", r);
			for (int c = 0; c < 8; c++)
				fprintf(out, " %04x", back[384 + r * 8 + c]);
			fprintf(out, "\n");
		}
	fprintf(out, "end\n\n");
}

static void describe(const char *date) {
	int version = 0, major = 0, minor = 0;
	char name[256] = "";
	CUdevice devc;
	CUcontext ctx;
	CHECK(cuInit(0));
	CHECK(cuDriverGetVersion(&version));
	CHECK(cuDeviceGet(&devc, 0));
	CHECK(cuDeviceGetName(name, sizeof name, devc));
	CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, devc));
	CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, devc));
	CHECK(cuCtxCreate(&ctx, 0, devc));
	fprintf(out, "# hwcheck/nvidia/hwcheck.c: where warp-level matrix instructions put fragment elements\n");
	fprintf(out, "date %s\ngpu %s\ncapability %d.%d\ndriver_api %d\n", date, name, major, minor, version);
	FILE *f = fopen("/proc/driver/nvidia/version", "r");
	char line[512];
	if (f && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		fprintf(out, "kernel_module %s\n", line);
	}
	if (f)
		fclose(f);
	fprintf(out, "\n");
	if (major < 9)
		die("compute capability %d.%d: stmatrix needs 9.0", major, minor);
}

int main(int argc, char **argv) {
	if (argc == 3 && !strcmp(argv[1], "--ptx"))
		ptxdir = argv[2];
	else if (argc < 2 || argc > 3)
		die("usage: hwcheck OUTFILE [DATE] | hwcheck --ptx DIR");
	if (!ptxdir) {
		out = fopen(argv[1], "w");
		if (!out)
			die("cannot write %s", argv[1]);
		opendriver();
		describe(argc == 3 ? argv[2] : "unknown");
	}
	for (int n = 1; n <= 4; n *= 2)
		for (int t = 0; t < 2; t++) {
			loadcase(n, t);
			storecase(n, t);
		}
	for (size_t i = 0; i < sizeof mmas / sizeof mmas[0]; i++)
		mmacase(&mmas[i]);
	chaincase(16);
	chaincase(8);
	if (out) {
		fprintf(out, "failures %d\n", failures);
		fclose(out);
	}
	fprintf(stderr, "hwcheck: %d failures\n", failures);
	return failures != 0;
}
