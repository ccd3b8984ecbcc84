/*
 * hwcheck: measures, on an NVIDIA GPU of compute capability 9.0 or later,
 * where the warp-level matrix instructions and the warpgroup-level
 * wgmma.mma_async (9.0 exactly: sm_90a) put the elements of their
 * fragments. It needs only the driver's libcuda.so.1 (opened with dlopen):
 * every kernel is PTX text made here and compiled by the driver's JIT
 * (cuModuleLoadDataEx), so no CUDA toolkit is needed to build or run it.
 *
 * It reads no record of the planner: what it writes is raw measurement,
 * which intrinsics/hardware_test.go holds against the records.
 *
 *   cc -O2 -std=c11 -o hwcheck hwcheck.c -ldl
 *   ./hwcheck OUTFILE [DATE [WGFILE]]  run everything, write OUTFILE, and
 *                                      with WGFILE the wgmma cases there
 *   ./hwcheck --ptx DIR                write each kernel's PTX to DIR, run nothing
 *
 * With HWCHECK_CUBINS=DIR set, a kernel with a file DIR/NAME.cubin (ptxas's
 * output for DIR/NAME.ptx) is loaded from it instead of JIT-compiled.
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
	/* HWCHECK_CUBINS=DIR: load DIR/name.cubin (made by ptxas from the
	 * --ptx output) instead of the PTX where there is one; the driver
	 * loads a cubin image through the same call (CUDA Driver API,
	 * cuModuleLoadDataEx). */
	const void *image = ptx;
	char *cubin = 0;
	const char *dir = getenv("HWCHECK_CUBINS");
	if (dir) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s.cubin", dir, name);
		FILE *f = fopen(path, "rb");
		if (f) {
			fseek(f, 0, SEEK_END);
			long size = ftell(f);
			fseek(f, 0, SEEK_SET);
			cubin = malloc(size > 0 ? (size_t)size : 1);
			if (!cubin || fread(cubin, 1, (size_t)size, f) != (size_t)size)
				die("cannot read %s", path);
			fclose(f);
			image = cubin;
			fprintf(stderr, "%s: loading %s\n", name, path);
		}
	}
	CUresult r = cuModuleLoadDataEx(&module, image, 2, opt, val);
	free(cubin);
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

/* Runs the kernel on blocks blocks of threads threads. */
static int launchn(const char *name, int blocks, int threads, CUdeviceptr *p, int n) {
	void *args[8];
	for (int i = 0; i < n; i++)
		args[i] = &p[i];
	CUresult r = cuLaunchKernel(kernel, blocks, 1, 1, threads, 1, 1, 0, 0, args, 0);
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

/* One warp per block. */
static int launch(const char *name, int blocks, CUdeviceptr *p, int n) {
	return launchn(name, blocks, 32, p, n);
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

/* ---- wgmma.mma_async ----
 * One warpgroup (128 threads, four warps) per block runs
 * wgmma.mma_async.sync.aligned.m64nNk16.{f32,f16}.f16.f16 with A in
 * registers, B in shared memory through a matrix descriptor and C loaded
 * into the D registers (scale-d true). PTX ISA, "Asynchronous Warpgroup
 * Level Matrix Multiply-Accumulate Instructions": wgmma.mma_async (the form
 * "d, a, b-desc, scale-d, imm-scale-a, imm-scale-b, imm-trans-b"; PTX ISA
 * 8.0, sm_90a); "wgmma.fence" (before the first wgmma.mma_async, and
 * between a write of its A or accumulator registers and the
 * wgmma.mma_async that reads them), wgmma.commit_group and
 * wgmma.wait_group; "Async Proxy" (wgmma.mma_async reads shared memory in
 * the async proxy, so shared memory written by ordinary stores needs
 * fence.proxy.async before it: each thread fences its own stores, then
 * bar.sync).
 *
 * B (K x N = 16 x N f16) is K-major with no swizzle: core matrices of 8
 * rows (N) by 16 bytes (8 K values), each 128 contiguous bytes, element
 * (k, n) at byte (n / 8) * SBO + (k / 8) * LBO + (n % 8) * 16 + (k % 8) * 2
 * with LBO = 128 and SBO = 256: PTX ISA, "Shared Memory Matrix Layout"
 * (K-major, no swizzle: an 8x1 atom of 128-bit elements) and "Matrix
 * Descriptor Format" (bits 13-0 start address, 29-16 leading dimension
 * byte offset, "the distance, in bytes, between two adjacent core matrices
 * in the K dimension", 45-32 stride dimension byte offset, the same "in the
 * M or N dimension", each as (x & 0x3FFFF) >> 4; bits 63-62 = 0, no
 * swizzle). hwcheck writes the tile as the first 32 N bytes of shared
 * memory and states LBO and SBO in each block; it never maps a position to
 * (k, n) itself: the Go test does, so a descriptor that the hardware reads
 * otherwise shows up there as a disagreement. Shared memory is twice the
 * tile, so that a read outside the tile is seen too. */
enum { WG_LBO = 128, WG_SBO = 256, WG_THREADS = 128 };

struct wgmma {
	const char *record;
	int n, c; /* N, and the accumulator type F32 or F16 */
};

static const struct wgmma wgmmas[] = {
	{"wgmma_m64n8k16_f32_f16", 8, F32},     {"wgmma_m64n8k16_f16_f16", 8, F16},
	{"wgmma_m64n16k16_f32_f16", 16, F32},   {"wgmma_m64n16k16_f16_f16", 16, F16},
	{"wgmma_m64n64k16_f32_f16", 64, F32},   {"wgmma_m64n64k16_f16_f16", 64, F16},
	{"wgmma_m64n256k16_f32_f16", 256, F32}, {"wgmma_m64n256k16_f16_f16", 256, F16},
};

/* Per thread: 8 A values in 4 registers; N/2 C and D values. */
struct wgshape {
	int vc, rc;      /* C and D values and 32-bit registers per thread */
	int tile, image; /* B elements (16 N) and shared-memory elements (2 tile) */
};

static struct wgshape wgshapeof(const struct wgmma *x) {
	struct wgshape s;
	s.vc = 64 * x->n / WG_THREADS;
	s.rc = s.vc * bits[x->c] / 32;
	s.tile = 16 * x->n;
	s.image = 2 * s.tile;
	return s;
}

static void wginstr(const struct wgmma *x, char *instr) {
	snprintf(instr, 96, "wgmma.mma_async.sync.aligned.m64n%dk16.%s.f16.f16", x->n, x->c == F32 ? "f32" : "f16");
}

/* Parameters: p0 A registers [block][thread][4]; p1 shared-memory images
 * [image][elements]; p2 [block] (image, C) pairs; p3 C registers
 * [C][thread][rc]; p4 D registers out [block][thread][rc]. */
static void wgkernel(const struct wgmma *x, struct wgshape s, const char *instr) {
	int bytes = 2 * s.image;
	ptxlen = 0;
	emit(".version 8.0\n.target sm_90a\n.address_size 64\n\n");
	emit(".shared .align 128 .b8 sm[%d];\n\n", bytes);
	entry(5);
	emit("\t.reg .b32 %%a<4>;\n\t.reg .%s %%d<%d>;\n\t.reg .b64 %%desc;\n\t.reg .pred %%scale;\n",
	     regtype(x->c), s.rc);
	begin();
	emit("\tmov.u32 %%r0, sm;\n");
	/* this block's image (%r5) and C (%r6) */
	emit("\tmul.wide.u32 %%q0, %%wp, 8;\n\tadd.u64 %%q0, %%q0, %%g2;\n");
	emit("\tld.global.u32 %%r5, [%%q0];\n\tld.global.u32 %%r6, [%%q0+4];\n");
	/* copy the image: thread t moves words t, t + 128, ... */
	emit("\tmul.wide.u32 %%q1, %%r5, %d;\n\tadd.u64 %%q1, %%q1, %%g1;\n", bytes);
	emit("\tmul.wide.u32 %%q2, %%ln, 4;\n\tadd.u64 %%q2, %%q2, %%q1;\n");
	emit("\tshl.b32 %%r3, %%ln, 2;\n\tadd.u32 %%r3, %%r3, %%r0;\n");
	for (int j = 0; j < bytes / (4 * WG_THREADS); j++)
		emit("\tld.global.b32 %%r2, [%%q2+%d];\n\tst.shared.b32 [%%r3+%d], %%r2;\n",
		     4 * WG_THREADS * j, 4 * WG_THREADS * j);
	emit("\tfence.proxy.async.shared::cta;\n\tbar.sync 0;\n");
	/* A: p0[(128 block + thread) * 4 ...] */
	emit("\tmad.lo.u32 %%r1, %%wp, %d, %%ln;\n", WG_THREADS);
	emit("\tmul.wide.u32 %%q3, %%r1, 16;\n\tadd.u64 %%q3, %%q3, %%g0;\n");
	for (int i = 0; i < 4; i++)
		emit("\tld.global.b32 %%a%d, [%%q3+%d];\n", i, 4 * i);
	/* C into D: p3[(128 C + thread) * rc ...] */
	emit("\tmad.lo.u32 %%r7, %%r6, %d, %%ln;\n", WG_THREADS);
	emit("\tmul.wide.u32 %%q4, %%r7, %d;\n\tadd.u64 %%q4, %%q4, %%g3;\n", 4 * s.rc);
	for (int i = 0; i < s.rc; i++)
		emit("\tld.global.%s %%d%d, [%%q4+%d];\n", regtype(x->c), i, 4 * i);
	/* the descriptor: start address, LBO, SBO, no swizzle */
	uint64_t fields = (uint64_t)(WG_LBO >> 4) << 16 | (uint64_t)(WG_SBO >> 4) << 32;
	emit("\tshr.u32 %%r8, %%r0, 4;\n\tand.b32 %%r8, %%r8, 0x3FFF;\n");
	emit("\tcvt.u64.u32 %%desc, %%r8;\n\tor.b64 %%desc, %%desc, 0x%016llx;\n", (unsigned long long)fields);
	emit("\tmov.u32 %%r9, 1;\n\tsetp.ne.u32 %%scale, %%r9, 0;\n");
	emit("\twgmma.fence.sync.aligned;\n");
	emit("\t%s ", instr);
	regs("d", s.rc, ", ");
	regs("a", 4, ", ");
	emit("%%desc, %%scale, 1, 1, 0;\n");
	emit("\twgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;\n");
	emit("\tmul.wide.u32 %%q5, %%r1, %d;\n\tadd.u64 %%q5, %%q5, %%g4;\n", 4 * s.rc);
	for (int i = 0; i < s.rc; i++)
		emit("\tst.global.%s [%%q5+%d], %%d%d;\n", regtype(x->c), 4 * i, i);
}

/* Runs the kernel on blocks blocks; returns D. */
static uint32_t *wgrun(const struct wgmma *x, struct wgshape s, int blocks, const uint32_t *a, const uint16_t *images,
                       int nimages, const uint32_t *pick, const uint32_t *c, int ncs) {
	size_t dwords = (size_t)blocks * WG_THREADS * s.rc;
	uint32_t *d = calloc(dwords, 4);
	CUdeviceptr p[5] = {dev(a, 16 * (size_t)blocks * WG_THREADS), dev(images, 2 * (size_t)nimages * s.image),
	                    dev(pick, 8 * (size_t)blocks), dev(c, 4 * (size_t)ncs * WG_THREADS * s.rc),
	                    dev(0, 4 * dwords)};
	launchn(x->record, blocks, WG_THREADS, p, 5);
	fetch(d, p[4], 4 * dwords);
	release(p, 5);
	return d;
}

/* Random: A and B in [-3, 3], C in [-8, 8]; shared memory past the tile
 * holds the poison value 0xEEEE. The block lists B's tile (16 halves a
 * line, from element e on) and each thread's A, C and D registers. */
static void wgrandom(const struct wgmma *x, struct wgshape s, const char *instr) {
	uint32_t a[4 * WG_THREADS] = {0}, pick[2] = {0, 0};
	uint16_t *image = malloc(2 * (size_t)s.image);
	uint32_t *c = calloc((size_t)WG_THREADS * s.rc, 4);
	for (int t = 0; t < WG_THREADS; t++)
		for (int v = 0; v < 8; v++)
			put(a + 4 * t, F16, v, encode(F16, small(-3, 3)));
	poison(image, s.image);
	for (int e = 0; e < s.tile; e++)
		image[e] = (uint16_t)encode(F16, small(-3, 3));
	for (int t = 0; t < WG_THREADS; t++)
		for (int v = 0; v < s.vc; v++)
			put(c + (size_t)t * s.rc, x->c, v, encode(x->c, small(-8, 8)));
	uint32_t *d = wgrun(x, s, 1, a, image, 1, pick, c, 1);
	fprintf(out, "wgrandom %s %s\n", x->record, instr);
	fprintf(out, "lbo %d sbo %d\n", WG_LBO, WG_SBO);
	for (int e = 0; e < s.tile; e += 16) {
		fprintf(out, "bmem %d", e);
		for (int i = 0; i < 16; i++)
			fprintf(out, " %04x", image[e + i]);
		fprintf(out, "\n");
	}
	for (int t = 0; t < WG_THREADS; t++) {
		fprintf(out, "thread %d a", t);
		for (int i = 0; i < 4; i++)
			fprintf(out, " %08x", a[4 * t + i]);
		fprintf(out, " c");
		for (int i = 0; i < s.rc; i++)
			fprintf(out, " %08x", c[(size_t)t * s.rc + i]);
		fprintf(out, " d");
		for (int i = 0; i < s.rc; i++)
			fprintf(out, " %08x", d[(size_t)t * s.rc + i]);
		fprintf(out, "\n");
	}
	fprintf(out, "end\n\n");
	free(image);
	free(c);
	free(d);
}

/* The B code of shared-memory element e in pass 0 and pass 1: 1 + its low
 * six bits, 1 + the rest (e < 8192: at most 128, exact in f16 and f32). */
static int wgcode(int e, int pass) { return 1 + (pass ? e >> 6 : e & 63); }

/* One-hot: block (pass, i) holds 1 in A value slot i (thread i / 8, value
 * i % 8: register v / 2, half v % 2) and 0 elsewhere in A and in C; shared
 * element e holds wgcode(e, pass) across the whole image. D slot d (thread
 * d / (N/2), value d % (N/2)) then names the element of shared memory it
 * was multiplied from. A slot's lit D slots form its row: the first slot of
 * each distinct row lists all its lines "t i e d"; every other slot lists
 * the line of its lowest D slot, which ties it to a row already listed and
 * names its K. A slot lighting other than N D slots is listed whole after a
 * line "lit i count" and counts as a failure, as does an "odd" value. */
static void wgonehot(const struct wgmma *x, struct wgshape s, const char *instr) {
	int slots = 8 * WG_THREADS, blocks = 2 * slots;
	uint32_t *a = calloc((size_t)blocks * WG_THREADS * 4, 4), *pick = calloc((size_t)blocks * 2, 4);
	uint16_t *images = malloc(4 * (size_t)s.image);
	uint32_t *c = calloc((size_t)WG_THREADS * s.rc, 4);
	for (int pass = 0; pass < 2; pass++) {
		for (int e = 0; e < s.image; e++)
			images[pass * s.image + e] = (uint16_t)encode(F16, wgcode(e, pass));
		for (int i = 0; i < slots; i++) {
			int b = pass * slots + i;
			put(a + ((size_t)b * WG_THREADS + i / 8) * 4, F16, i % 8, encode(F16, 1));
			pick[2 * b] = (uint32_t)pass;
		}
	}
	uint32_t *d = wgrun(x, s, blocks, a, images, 2, pick, c, 1);
	fprintf(out, "wgonehot %s %s\n", x->record, instr);
	fprintf(out, "lbo %d sbo %d\n", WG_LBO, WG_SBO);
	int dslots = WG_THREADS * s.vc, odd = 0, rows = 0;
	int *lit = malloc(sizeof(int) * dslots), *elem = malloc(sizeof(int) * dslots);
	int *rowslots = malloc(sizeof(int) * (size_t)slots * x->n);
	for (int i = 0; i < slots; i++) {
		int count = 0;
		for (int slot = 0; slot < dslots; slot++) {
			int t = slot / s.vc, v = slot % s.vc;
			double lo = decode(x->c, get(d + ((size_t)i * WG_THREADS + t) * s.rc, x->c, v));
			double hi = decode(x->c, get(d + ((size_t)(slots + i) * WG_THREADS + t) * s.rc, x->c, v));
			if (lo == 0 && hi == 0)
				continue;
			if (lo != (int)lo || hi != (int)hi || lo < 1 || lo > 64 || hi < 1 || hi > 128) {
				fprintf(out, "odd %d %d %g %g\n", i, slot, lo, hi);
				odd++;
				continue;
			}
			lit[count] = slot;
			elem[count++] = ((int)lo - 1) | ((int)hi - 1) << 6;
		}
		int known = 0;
		if (count == x->n)
			for (int r = 0; r < rows && !known; r++)
				known = !memcmp(rowslots + (size_t)r * x->n, lit, sizeof(int) * x->n);
		if (count != x->n) {
			fprintf(out, "lit %d %d\n", i, count);
			odd++;
		} else if (!known)
			memcpy(rowslots + (size_t)rows++ * x->n, lit, sizeof(int) * x->n);
		for (int j = 0; j < (known ? 1 : count); j++)
			fprintf(out, "t %d %d %d\n", i, elem[j], lit[j]);
	}
	fprintf(out, "rows %d\nend\n\n", rows);
	if (odd)
		failures++;
	free(lit);
	free(elem);
	free(rowslots);
	free(a);
	free(pick);
	free(images);
	free(c);
	free(d);
}

static void wgcase(const struct wgmma *x) {
	char instr[96];
	struct wgshape s = wgshapeof(x);
	wginstr(x, instr);
	wgkernel(x, s, instr);
	if (!finish(x->record))
		return;
	wgrandom(x, s, instr);
	wgonehot(x, s, instr);
}

static int major, minor;

/* Starts the driver (once) and writes the header of a measurement file:
 * its title, the date and what the device says of itself. */
static void describe(const char *title, const char *date) {
	static int version;
	static char name[256];
	static int started;
	if (!started) {
		CUdevice devc;
		CUcontext ctx;
		CHECK(cuInit(0));
		CHECK(cuDriverGetVersion(&version));
		CHECK(cuDeviceGet(&devc, 0));
		CHECK(cuDeviceGetName(name, sizeof name, devc));
		CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, devc));
		CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, devc));
		CHECK(cuCtxCreate(&ctx, 0, devc));
		started = 1;
	}
	fprintf(out, "# hwcheck/nvidia/hwcheck.c: %s\n", title);
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
	else if (argc < 2 || argc > 4)
		die("usage: hwcheck OUTFILE [DATE [WGMMAFILE]] | hwcheck --ptx DIR");
	const char *date = argc >= 3 ? argv[2] : "unknown";
	if (!ptxdir) {
		out = fopen(argv[1], "w");
		if (!out)
			die("cannot write %s", argv[1]);
		opendriver();
		describe("where warp-level matrix instructions put fragment elements", date);
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
	int before = failures;
	if (out) {
		fprintf(out, "failures %d\n", failures);
		fclose(out);
		out = 0;
	}
	/* wgmma goes to a file of its own, so that the file above stays as it was. */
	if (argc == 4) {
		out = fopen(argv[3], "w");
		if (!out)
			die("cannot write %s", argv[3]);
		describe("where wgmma.mma_async puts fragment elements", date);
		fprintf(out, "loader %s\n\n", getenv("HWCHECK_CUBINS") ? "cubin" : "jit");
	}
	if (ptxdir || argc == 4) {
		if (!ptxdir && (major != 9 || minor != 0)) {
			fprintf(out, "error wgmma needs sm_90a, the device is %d.%d\n", major, minor);
			failures++;
		} else
			for (size_t i = 0; i < sizeof wgmmas / sizeof wgmmas[0]; i++)
				wgcase(&wgmmas[i]);
	}
	if (out) {
		fprintf(out, "failures %d\n", failures - before);
		fclose(out);
	}
	fprintf(stderr, "hwcheck: %d failures\n", failures);
	return failures != 0;
}
