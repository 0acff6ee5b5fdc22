/*
 * options.c - every option, defined once in opts[]: its names, its
 * argument and range, where its value goes, the modes that use it, and
 * its help. getopt_long's table, --help, the range checks and the checks
 * against the chosen mode all come from there.
 */
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opts.h"

#define SMEM_MAX UINT64_C(0xffffffff)  /* cuLaunchKernel's unsigned int */


/* Groups of options, for the messages that refuse them. */
#define G_OCC 1u       /* describe a kernel's occupancy */
#define G_GPU 2u       /* --api, --measure */
#define G_CHART 4u
#define G_ACCESS 8u    /* describe an access pattern */
#define G_PERSIST 16u  /* describe a persistence plan */
#define G_TRAFFIC 32u  /* describe a launch's traffic */


#define O(field) offsetof(struct options, field)
#define OCC M(MODE_OCCUPANCY)
#define KER M(MODE_KERNELS)
#define ACC M(MODE_ACCESS)
#define PER M(MODE_PERSIST)
#define INF M(MODE_INFO)
#define TRF M(MODE_TRAFFIC)
/* The modes that read launches: --launches, and --trace once its command
 * has run. */
#define LAU (M(MODE_LAUNCHES) | M(MODE_TRACE))
#define TRC M(MODE_TRACE)
#define CFG (OCC | KER)
#define ROWS M_ALL
#define NUM(lo, hi) .kind = ARG_NUM, .min = lo, .max = hi
#define SEQ(lo, hi) .kind = ARG_SEQ, .min = lo, .max = hi
#define SHAPES(lo, hi) .kind = ARG_SHAPES, .min = lo, .max = hi
#define FLAG(field, v) .kind = ARG_FLAG, .dest = O(field), .set = v
#define MODE(m) .selects = m, .modes = M(m)

const struct opt opts[] = {
	{ "arch", 'a', ARG_STR, "ARCH", .dest = O(arch),
	  .topic = T_KERNEL,
	  .complete = "@archs",
	  .modes = CFG | ACC | PER | INF | TRF, .selects = -1,
	  .help = "architecture: sm_90, 90 or 9.0 (see "
	  "--list-archs);\nwithout it, the GPU's (--device); a list\n"
	  "(sm_80,sm_90): each in turn" },
	{ "device", 0, ARG_FN, "N", .parse = arg_device,
	  .topic = T_KERNEL,
	  .modes = OCC | KER | ACC | PER | INF | TRF, .selects = -1,
	  .help = "the CUDA device to use without --arch (default 0);\n'all': "
	  "every GPU of this machine, one row each;\n--kernels: the image "
	  "that GPU loads" },
	{ "block", 'b', SHAPES(1, INT32_MAX), .metavar = "N", .dest = O(block),
	  .topic = T_KERNEL,
	  .def = "0", .modes = CFG | TRF, .selects = -1, .groups = G_OCC,
	  .help = "threads per block, or its shape (16x16, "
	  "8x8x4);\nwithout it, the block size that maximises\noccupancy" },
	{ "regs", 'r', SEQ(0, OCC_MAX_REGS_ANY_ARCH), .metavar = "N",
	  .topic = T_KERNEL,
	  .dest = O(regs), .def = "0", .modes = OCC, .selects = -1,
	  .groups = G_OCC, .help = "registers per thread (default 0)" },
	{ "smem", 's', SEQ(0, SMEM_MAX), .metavar = "BYTES", .dest = O(smem),
	  .topic = T_KERNEL,
	  .def = "0", .modes = CFG, .selects = -1, .groups = G_OCC,
	  .help = "dynamic shared memory per block (default 0);\nsuffixes K "
	  "and M multiply by 1024 and 1048576" },
	{ "static-smem", 'S', SEQ(0, SMEM_MAX), .metavar = "BYTES",
	  .topic = T_KERNEL,
	  .dest = O(static_smem), .def = "0", .modes = OCC, .selects = -1,
	  .groups = G_OCC, .help = "static shared memory per block (default 0)" },
	{ "smem-per-thread", 0, NUM(0, SMEM_MAX), .metavar = "BYTES",
	  .topic = T_KERNEL,
	  .dest = O(growth.per_thread), .modes = CFG, .selects = -1,
	  .groups = G_OCC, .help = "dynamic shared memory that grows with the "
	  "block,\nadded to --smem: per thread" },
	{ "smem-per-warp", 0, NUM(0, SMEM_MAX), .metavar = "BYTES",
	  .topic = T_KERNEL,
	  .dest = O(growth.per_warp), .modes = CFG, .selects = -1,
	  .groups = G_OCC, .help = "the same, per warp" },
	{ "sms", 0, NUM(1, 1 << 20), .metavar = "N", .dest = O(sms),
	  .topic = T_LAUNCH,
	  .modes = CFG, .selects = -1, .help = "SMs of the GPU: the minimum "
	  "grid that fills it,\nand the waves of --grid" },
	{ "gpu", 0, ARG_STR, "NAME", .dest = O(gpu),
	  .modes = CFG | INF | ACC | TRF | PER | M(MODE_LAUNCHES),
	  .topic = T_LAUNCH, .complete = "@gpus",
	  .selects = -1, .groups = G_OCC, .help = "a GPU from the list "
	  "(--list-gpus): its SMs, and its\narchitecture unless --arch is given;"
	  "\nits L2 for --persist; also its device name\n('NVIDIA H100 80GB "
	  "HBM3') or a part of its name ('4090');\na list (H100-SXM,A100,RTX-5090): a row per "
	  "GPU;\n--launches: each launch as it would run on it" },
	{ "grid", 0, ARG_FN, "N", .parse = arg_grid, .topic = T_LAUNCH,
	  .modes = CFG | TRF, .selects = -1, .groups = G_OCC, .help = "blocks "
	  "launched (N, NxM or NxMxK): full waves, the\nlast wave, and the "
	  "occupancy averaged over the launch" },
	{ "carveout", 'c', ARG_FN, "PCT", .parse = arg_carveout,
	  .topic = T_KERNEL,
	  .modes = CFG, .selects = -1, .groups = G_OCC,
	  .help = "shared-memory carveout preference, 0-100 or\n'default'" },
	{ "barriers", 0, NUM(0, OCC_MAX_BARRIERS_PER_BLOCK), .metavar = "N",
	  .topic = T_KERNEL,
	  .dest = O(barriers), .def = "1", .modes = CFG, .selects = -1,
	  .groups = G_OCC, .help = "block barriers the kernel uses, 0-16 "
	  "(default 1)" },
	{ "optin", 0, FLAG(optin, 1), .modes = CFG, .selects = -1,
	  .topic = T_KERNEL,
	  .groups = G_OCC, .help = "allow more than sharedMemPerBlock "
	  "through\ncudaFuncAttributeMaxDynamicSharedMemorySize\n(the default)" },
	{ "no-optin", 0, FLAG(optin, 0), .modes = CFG, .selects = -1,
	  .topic = T_KERNEL,
	  .groups = G_OCC, .help = "the kernel does not raise its dynamic limit" },
	{ "kernels", 0, ARG_STR, "PATH", .dest = O(ptxas), MODE(MODE_KERNELS),
	  .topic = T_KERNELS,
	  .groups = G_OCC, .help = "the kernels of a binary (cubin, fatbin, "
	  "object,\nexecutable, shared library), a directory of them,\nor a "
	  "compiler report ('nvcc -Xptxas -v',\n'cuobjdump "
	  "--dump-resource-usage'); '-': standard\ninput. One row per kernel "
	  "and architecture" },
	{ "cluster", 0, ARG_FN, "SHAPE", .parse = arg_cluster, .modes = CFG,
	  .topic = T_LAUNCH,
	  .selects = -1, .groups = G_OCC, .help = "thread-block clusters of N "
	  "CTAs, or AxB[xC]: the\nclusters the GPU holds at once (a list, a "
	  "range,\nor 'best': the size with the most CTAs resident)" },
	{ "layout", 0, ARG_FN, "LAYOUT", .parse = arg_layout, .modes = CFG | LAU,
	  .topic = T_LAUNCH,
	  .selects = -1, .groups = G_OCC, .help = "the GPU's SMs per GPC for "
	  "--cluster and traced\ncluster launches, NxK for K alike: "
	  "8,16x5,18x2,2x4\n(default: the GPU's own, measured, or the "
	  "list's)" },
	{ "partition", 0, NUM(0, 1024), .metavar = "MIN_SMS",
	  .dest = O(partition.min_sms), .modes = CFG | LAU, .topic = T_LAUNCH,
	  .selects = -1, .groups = G_OCC, .help = "compute in a part of the "
	  "GPU split into groups of\nat least MIN_SMS SMs, as "
	  "cuDevSmResourceSplitByCount\nsplits for green contexts: the part's "
	  "SMs, GPCs,\nwaves and clusters (--launches, --trace: of each\n"
	  "traced GPU)" },
	{ "partition-flags", 0, ARG_FN, "FLAGS", .parse = arg_partition_flags,
	  .modes = CFG | LAU, .topic = T_LAUNCH, .selects = -1, .groups = G_OCC,
	  .complete = "default ignore-coscheduling max-cluster-size",
	  .help = "--partition's useFlags: ignore-coscheduling,\n"
	  "max-cluster-size (default: none)" },
	{ "partition-part", 0, ARG_FN, "PART", .parse = arg_partition_part,
	  .modes = CFG | LAU, .topic = T_LAUNCH, .selects = -1, .groups = G_OCC,
	  .complete = "group remaining",
	  .help = "the part computed in: group (the first), group:N,\nor "
	  "remaining (default: group)" },
	{ "ptxas", 0, ARG_STR, "FILE", .dest = O(ptxas), MODE(MODE_KERNELS),
	  .topic = T_KERNELS,
	  .groups = G_OCC, .help = "the same as --kernels" },
	{ "kernel", 0, ARG_STR, "REGEX", .dest = O(kernel_re),
	  .modes = KER | LAU, .topic = T_KERNELS,
	  .selects = -1, .help = "--kernels, --launches: only kernels whose "
	  "name,\ndemangled or not, matches REGEX (extended)" },
	{ "launches", 0, ARG_STR, "FILE", .dest = O(launches),
	  MODE(MODE_LAUNCHES), .topic = T_LAUNCHES,
	  .help = "the launches of traces: occcalc's own or\nPyTorch "
	  "profiler (Kineto) Chrome traces, plain\nor gzip, more files "
	  "after it (one per rank):\neach launch on the GPU it ran on; text: "
	  "per\nkernel, by GPU time; csv, json, jsonl: per launch" },
	{ "by", 0, ARG_STR, "WHAT", .dest = O(by), .modes = LAU,
	  .topic = T_LAUNCHES, .complete = "kernel op", .selects = -1,
	  .help = "--launches, --trace: the text summary's rows\nby kernel "
	  "(default) or by op, the PyTorch\noperator that launched them; a "
	  "row per GPU" },
	{ "wide", 0, FLAG(wide, 1), .modes = LAU, .selects = -1,
	  .topic = T_LAUNCHES,
	  .help = "--launches, --trace: full kernel names in the\nsummary "
	  "(default: shortened, unless the\nterminal is wide enough)" },
	{ "annotate", 0, ARG_STR, "FILE", .dest = O(annotate),
	  .modes = M(MODE_LAUNCHES), .topic = T_LAUNCHES, .selects = -1,
	  .help = "--launches: write the Kineto trace to FILE as\nit is, "
	  "with an \"occcalc\" object of the\nlaunch's figures in each "
	  "kernel's args\n(an occcalc trace: as --chrome-trace); gzip\nif "
	  "FILE ends in .gz, - for standard output" },
	{ "chrome-trace", 0, ARG_STR, "FILE", .dest = O(chrome_trace),
	  .modes = LAU, .topic = T_LAUNCHES, .selects = -1,
	  .help = "write the launches to FILE as a Chrome trace\n(Perfetto, "
	  "chrome://tracing), each with an\n\"occcalc\" object of its "
	  "figures; gzip if\nFILE ends in .gz, - for standard output" },
	{ "compare", 0, ARG_STR, "BASELINE", .dest = O(compare),
	  .modes = KER | M(MODE_LAUNCHES), .topic = T_CI,
	  .selects = -1, .help = "--kernels: the rows against BASELINE's (a "
	  "binary,\na directory, or occcalc's JSON or JSON Lines):\nthe "
	  "fields that changed, kernels added and removed;\n--launches: "
	  "per kernel and operator against a\ntrace or --launches' JSON rows" },
	{ "all", 0, FLAG(all, 1), .modes = KER | M(MODE_LAUNCHES), .selects = -1,
	  .topic = T_CI,
	  .help = "--compare: list unchanged kernels too" },
	{ "all-images", 0, FLAG(all_images, 1), .modes = KER, .selects = -1,
	  .topic = T_KERNELS,
	  .help = "--kernels: every image of each fatbin, not\nonly the one "
	  "the driver loads on the GPU\nnamed (--gpu, --arch, --api)" },
	{ "ptxas-jit", 0, FLAG(ptxas_jit, 1), .modes = KER, .selects = -1,
	  .topic = T_KERNELS,
	  .help = "--kernels: where that image is PTX, the\nresources the "
	  "toolkit's ptxas gives for the\nGPU named (the driver's own: --api)" },
	{ "jobs", 0, NUM(1, 256), .metavar = "N", .dest = O(jobs), .modes = KER,
	  .topic = T_KERNELS,
	  .selects = -1, .help = "--kernels: read a binary's images, "
	  "make its rows\nand (--api) load them in the driver, on N threads\n"
	  "(default: one per processor, less one from 8;\nthe output is the "
	  "same)" },
	{ "format", 'f', ARG_FN, "FMT", .parse = arg_format, .modes = ROWS,
	  .topic = T_OUTPUT, .complete = "text csv json jsonl csv,noheader "
	  "csv,noheader,nounits",
	  .selects = -1,
	  .help = "text, csv, json or jsonl (default text);\ncsv or text "
	  "tables may add ,noheader and\n,nounits (csv,noheader,nounits as "
	  "nvidia-smi)" },
	{ "fields", 0, ARG_STR, "LIST", .dest = O(fields), .modes = ROWS,
	  .topic = T_OUTPUT,
	  .selects = -1, .help = "the fields to print, in this order, "
	  "comma-separated\n(--list-fields lists them)" },
	{ "chart", 0, FLAG(chart, 1), .modes = OCC, .selects = -1,
	  .topic = T_OUTPUT,
	  .groups = G_OCC | G_CHART, .help = "draw occupancy against block "
	  "size, registers and\nshared memory, this configuration marked" },
	{ "plot", 0, ARG_STR, "FILE", .dest = O(plot), .modes = OCC,
	  .topic = T_OUTPUT,
	  .selects = -1, .groups = G_OCC | G_CHART,
	  .help = "the same three charts as SVG, into FILE" },
	{ "headroom", 0, FLAG(headroom, 1), .modes = CFG, .selects = -1,
	  .topic = T_OUTPUT,
	  .groups = G_OCC, .help = "CSV and JSON: add the register and "
	  "shared-memory\nheadroom fields (the text report always has it)" },
	{ "check", 0, ARG_FN, "EXPR", .parse = arg_check, .modes = ROWS,
	  .topic = T_CI,
	  .selects = -1, .help = "fail (exit 1) if a row breaks EXPR, as "
	  "'regs <= 128\n&& spill_stores == 0' (fields, == != < <= > >=,\n&& "
	  "|| ! and parentheses); repeatable" },
	{ "check-file", 0, ARG_STR, "FILE", .dest = O(check_file), .modes = KER,
	  .topic = T_CI,
	  .selects = -1, .help = "per-kernel budgets, 'REGEX: EXPR' a line" },
	{ "info", 'i', FLAG(mode, MODE_INFO), MODE(MODE_INFO),
	  .topic = T_INFO,
	  .help = "print the architecture's table values" },
	{ "list-archs", 'l', FLAG(mode, MODE_LIST_ARCHS),
	  .topic = T_INFO,
	  MODE(MODE_LIST_ARCHS), .help = "list the architectures that have a "
	  "table" },
	{ "list-gpus", 0, FLAG(mode, MODE_LIST_GPUS), MODE(MODE_LIST_GPUS),
	  .topic = T_INFO,
	  .help = "list the GPUs --gpu knows, in any --format" },
	{ "list-devices", 0, FLAG(mode, MODE_LIST_DEVICES),
	  .topic = T_INFO,
	  MODE(MODE_LIST_DEVICES), .help = "list this machine's CUDA devices" },
	{ "list-fields", 0, FLAG(mode, MODE_LIST_FIELDS), MODE(MODE_LIST_FIELDS),
	  .topic = T_INFO,
	  .help = "list every kind of row's fields, with their\ntype and "
	  "description" },
	{ "api", 0, FLAG(api, 1), .modes = CFG, .selects = -1,
	  .topic = T_GPU,
	  .groups = G_OCC | G_GPU, .help = "also ask the runtime's occupancy API "
	  "about a\ncalibrated kernel with exactly these resources;\nwith "
	  "--kernels, the driver about the kernels' own\ncode" },
	{ "measure", 0, FLAG(measure, 1), .modes = OCC | ACC | PER,
	  .topic = T_GPU,
	  .selects = -1, .groups = G_GPU, .help = "and launch it: blocks "
	  "resident per SM and\nachieved occupancy, measured (--grid N: N "
	  "blocks);\nwith --access, each pattern's bandwidth; with\n--persist, "
	  "re-reads timed without and with the plan" },
	{ "tables", 't', ARG_FN, "DIR", .parse = arg_tables,
	  .topic = T_INFO,
	  .modes = M_ALL & ~M(MODE_LIST_DEVICES) & ~M(MODE_LIST_FIELDS),
	  .selects = -1, .help = "read architecture tables from DIR\n(default: "
	  "$OCCCALC_TABLES; from the build tree, the\nsource tree's; else "
	  OCC_TABLES_DIR ")" },
	{ "access", 0, ARG_FN, "OP", .parse = arg_ops, MODE(MODE_ACCESS),
	  .topic = T_ACCESS, .complete = "load store load,store",
	  .help = "load, store or load,store: the sectors and lines\none warp "
	  "instruction touches, and its efficiency" },
	{ "elem", 0, ARG_FN, "BYTES", .parse = arg_elem, .def = "4",
	  .topic = T_ACCESS,
	  .modes = ACC | TRF, .selects = -1, .groups = G_ACCESS,
	  .help = "element size: 1, 2, 4, 8 or 16 (default 4);\n--traffic "
	  "also NAME=BYTES,... per array" },
	{ "stride", 0, ARG_FN, "N", .parse = arg_stride, .def = "1",
	  .topic = T_ACCESS,
	  .modes = ACC, .selects = -1, .groups = G_ACCESS,
	  .help = "elements between consecutive threads "
	  "(default 1;\n0: all threads read one element;\nbelow 0: the lanes reversed)" },
	{ "offset", 0, SEQ(0, UINT64_MAX), .metavar = "N",
	  .topic = T_ACCESS,
	  .dest = O(access.offset), .def = "0", .modes = ACC, .selects = -1,
	  .groups = G_ACCESS, .help = "elements from a 128-byte aligned base "
	  "(default 0)" },
	{ "threads", 0, SEQ(1, 32), .metavar = "N", .dest = O(access.threads),
	  .topic = T_ACCESS,
	  .def = "32", .modes = ACC | TRF, .selects = -1, .groups = G_ACCESS,
	  .help = "active threads of the warp, 1-32 (default 32)" },
	{ "lane-xor", 0, NUM(0, 31), .metavar = "MASK",
	  .topic = T_ACCESS,
	  .dest = O(access.lane_xor), .modes = ACC, .selects = -1,
	  .groups = G_ACCESS, .help = "thread i takes thread (i ^ MASK)'s "
	  "element" },
	{ "total", 0, FLAG(access.total, 1), .modes = ACC, .selects = -1,
	  .topic = T_ACCESS,
	  .groups = G_ACCESS, .help = "add a line summing the rows: one "
	  "kernel's accesses" },
	{ "traffic", 0, ARG_STR, "TEXT", .dest = O(traffic.text),
	  .topic = T_TRAFFIC,
	  MODE(MODE_TRAFFIC), .help = "a kernel's accesses as C, 'z[i] = x[i] "
	  "+ y[i]',\nindexed by i, threadIdx, blockIdx (a tile of a\n2-D or "
	  "3-D grid too): the launch's\ninstructions, requests, sectors and "
	  "bytes,\nlevel by level (--grid and --block, or --count)" },
	{ "count", 0, SEQ(1, UINT64_MAX), .metavar = "N",
	  .topic = T_TRAFFIC,
	  .dest = O(traffic.count), .modes = TRF, .selects = -1,
	  .groups = G_TRAFFIC, .help = "threads launched, instead of --grid "
	  "and --block\n(if (i < N) in blocks of a multiple of 32)" },
	{ "define", 0, ARG_STR, "NAME=N,...", .dest = O(traffic.defines),
	  .topic = T_TRAFFIC,
	  .modes = TRF, .selects = -1, .groups = G_TRAFFIC, .help = "integer "
	  "constants the index names, as\nN=4096,stride=4 for x[N - i], "
	  "x[i*stride]" },
	{ "dlcm", 0, ARG_FN, "ca|cg", .parse = arg_dlcm, .modes = TRF,
	  .topic = T_TRAFFIC, .complete = "ca cg",
	  .selects = -1, .groups = G_TRAFFIC, .help = "loads as compiled with "
	  "-Xptxas -dlcm=ca (cached in\nL1) or cg (L2 only); default: the "
	  "architecture's" },
	{ "persist", 0, SEQ(1, UINT64_C(1) << 48), .metavar = "BYTES",
	  .topic = T_PERSIST,
	  .dest = O(persist), MODE(MODE_PERSIST), .help = "plan L2 persistence "
	  "for data re-read by a kernel:\nthe set-aside, the window, the "
	  "hitRatio, the code" },
	{ "streams", 0, NUM(1, 1024), .metavar = "N", .dest = O(streams),
	  .topic = T_PERSIST,
	  .def = "1", .modes = PER, .selects = -1, .groups = G_PERSIST,
	  .help = "concurrent streams sharing the set-aside (default 1)" },
	{ "l2", 0, ARG_FN, "SIZE:MAX:WINDOW", .parse = arg_l2, .modes = PER,
	  .topic = T_PERSIST,
	  .selects = -1, .groups = G_PERSIST, .help = "the L2 figures "
	  "(l2CacheSize,\npersistingL2CacheMaxSize, accessPolicyMaxWindowSize)"
	  "\ninstead of the device's" },
	{ "trace", 0, FLAG(mode, MODE_TRACE), MODE(MODE_TRACE),
	  .topic = T_TRACE, .metavar = "-- COMMAND",
	  .help = "run COMMAND [ARGS...] (after --) with occcalc's\nCUPTI "
	  "injection library: every kernel launch of\nit and of the "
	  "processes it starts, then their\noccupancy; its exit status is "
	  "occcalc's" },
	{ "trace-out", 0, ARG_STR, "PATH", .dest = O(trace_out), .modes = TRC,
	  .topic = T_TRACE, .selects = -1,
	  .help = "--trace: keep the trace files: PATH a file\n(FILE.PID for "
	  "each process after the first)\nor a directory (default: a "
	  "temporary one,\nremoved)" },
	{ "trace-calls", 0, FLAG(trace_calls, 1), .modes = TRC,
	  .topic = T_TRACE, .selects = -1,
	  .help = "--trace: take the launches from CUPTI's\ncallback API at "
	  "each launch call, not its\nkernel activity records: cheaper, "
	  "with no\nGPU times and no carveout (the largest is\nassumed)" },
	{ "achieved", 0, ARG_FN, "[=N[,L]]", .parse = arg_achieved,
	  .optional = 1, .modes = TRC, .topic = T_TRACE, .selects = -1,
	  .help = "--trace: measure achieved occupancy in the\nsame run "
	  "(CUPTI's range profiler, a range a\nlaunch) of the first L "
	  "launches of each\nkernel (default 3), shown for the N kernels\n"
	  "with the most GPU time (default 10, or all)" },
	{ "help", 'h', FLAG(mode, 0), .metavar = "[TOPIC]", .optional = 1,
	  .modes = M_ALL, .selects = -1, .topic = T_INFO, .complete = "@topics",
	  .help = "print this help (a TOPIC's, or 'all') and\nexit" },
	{ "completion", 0, ARG_STR, "SHELL", .dest = O(completion),
	  .modes = M_ALL, .selects = -1, .topic = T_INFO, .complete = "bash zsh",
	  .help = "print the completion script for bash or zsh\n(what "
	  "make install installs) and exit" },
	{ "version", 'V', FLAG(mode, 0), .modes = M_ALL, .selects = -1,
	  .topic = T_INFO,
	  .help = "print the version and exit" },
};

#define NOPTS (sizeof opts / sizeof opts[0])
const size_t opts_n = NOPTS;

/* The modes, by the option that selects them, for messages. */
static const char *const mode_names[MODE_COUNT] = {
	[MODE_OCCUPANCY] = "an occupancy calculation", [MODE_KERNELS] = "--kernels",
	[MODE_ACCESS] = "--access", [MODE_PERSIST] = "--persist",
	[MODE_INFO] = "--info", [MODE_LIST_ARCHS] = "--list-archs",
	[MODE_LIST_GPUS] = "--list-gpus", [MODE_LIST_DEVICES] = "--list-devices",
	[MODE_LIST_FIELDS] = "--list-fields", [MODE_TRAFFIC] = "--traffic",
	[MODE_LAUNCHES] = "--launches",
	[MODE_TRACE] = "--trace",
};

/* Why an option a mode does not use is refused: the first rule whose
 * groups and modes match, else the general one. */
static const struct refusal {
	unsigned groups, modes;
	const char *fmt;       /* %1$s: the option, %2$s: the mode */
} refusals[] = {
	{ G_GPU, KER, "--measure launches a calibrated kernel, not the ones "
	  "of --kernels (--api asks the driver about them)" },
	{ G_CHART, KER, "--chart and --plot draw one configuration, not a "
	  "sweep or a compiler report" },
	{ G_OCC, ACC | PER | TRF, "%1$s is an occupancy option; %2$s computes memory "
	  "transactions" },
	{ G_TRAFFIC, M_ALL, "%1$s goes with --traffic" },
	{ G_ACCESS, M_ALL, "%1$s goes with --access" },
	{ G_PERSIST, M_ALL, "--l2 and --streams go with --persist" },
	{ 0, M_ALL, "%1$s does not apply to %2$s" },
};

/* ---- Parsing ---- */

static void *dest(const struct opt *op, struct options *o)
{
	return (char *)o + op->dest;
}

static void take(const struct opt *op, const char *arg, struct options *o)
{
	switch (op->kind) {
	case ARG_FLAG:
		*(int *)dest(op, o) = op->set;
		break;
	case ARG_SEQ:
		seq_free(dest(op, o));
		arg_seq(op->name, arg, op->min, op->max, dest(op, o));
		break;
	case ARG_SHAPES:
		seq_free(dest(op, o));
		arg_shapes(op->name, arg, op->min, op->max, dest(op, o));
		break;
	case ARG_NUM:
		*(uint64_t *)dest(op, o) = arg_number(op->name, arg, op->min,
							op->max);
		break;
	case ARG_STR:
		*(const char **)dest(op, o) = arg;
		break;
	case ARG_FN:
		op->parse(op->name, arg, o);
		break;
	}
}

static void defaults(struct options *o)
{
	size_t i;

	memset(o, 0, sizeof *o);
	o->mode = MODE_OCCUPANCY;
	o->carveout_default = 1;
	o->optin = 1;
	o->format = OUT_TEXT;
	for (i = 0; i < NOPTS; i++)
		if (opts[i].def && (opts[i].kind == ARG_SEQ ||
				    opts[i].kind == ARG_SHAPES))
			arg_seq(opts[i].name, opts[i].def, 0, UINT64_MAX,
				  dest(&opts[i], o));
		else if (opts[i].def && opts[i].kind == ARG_FN)
			opts[i].parse(opts[i].name, opts[i].def, o);
		else if (opts[i].def)
			*(uint64_t *)dest(&opts[i], o) =
				strtoull(opts[i].def, NULL, 10);
}

/* getopt_long's tables, from opts[]. */
static void getopt_tables(struct option *longs, char *shorts)
{
	size_t i, n = 0;

	shorts[n++] = ':';
	for (i = 0; i < NOPTS; i++) {
		longs[i].name = opts[i].name;
		longs[i].has_arg = opts[i].optional ? optional_argument
				   : opts[i].kind == ARG_FLAG ? no_argument
				   : required_argument;
		longs[i].flag = NULL;
		longs[i].val = 256 + (int)i;
		if (opts[i].key) {
			shorts[n++] = (char)opts[i].key;
			if (opts[i].optional)      /* "h::" */
				shorts[n++] = ':';
			if (opts[i].kind != ARG_FLAG || opts[i].optional)
				shorts[n++] = ':';
		}
	}
	memset(&longs[NOPTS], 0, sizeof longs[NOPTS]);
	shorts[n] = '\0';
}

/* The option getopt_long returned: its index in opts[]. */
static int opt_index(int c)
{
	size_t i;

	if (c >= 256 && c < 256 + (int)NOPTS)
		return c - 256;
	for (i = 0; i < NOPTS; i++)
		if (opts[i].key && opts[i].key == c)
			return (int)i;
	return -1;
}

/* A misspelt long option: the nearest names, where some are near. */
static _Noreturn void unknown_long(const char *arg)
{
	const char *name = arg + strspn(arg, "-");
	size_t len = strcspn(name, "="), i;
	struct nearest nr;
	char near[160], dashed[NEAREST_MAX][64];

	nearest_init(&nr, name, len);
	for (i = 0; i < NOPTS; i++)
		if (opts[i].name && opts[i].help)
			nearest_offer(&nr, opts[i].name);
	/* Only names a typo away: a third of the length, two at least. */
	while (nr.n && nr.dist[nr.n - 1] > (int)(len / 3 > 2 ? len / 3 : 2))
		nr.n--;
	if (!nr.n)
		die_usage("unknown option '%s' (see --help)", arg);
	for (i = 0; i < nr.n; i++) {
		snprintf(dashed[i], sizeof dashed[i], "--%s", nr.name[i]);
		nr.name[i] = dashed[i];
	}
	nearest_text(&nr, near, sizeof near);
	die_usage("unknown option '%s'; did you mean %s? (see --help)", arg,
		  near);
}

static _Noreturn void bad_option(int c, char **argv)
{
	int i = opt_index(optopt);

	if (c == ':' && i >= 0)
		die_usage("option '--%s' needs a value", opts[i].name);
	if (c == ':')
		die_usage("option '%s' needs a value", argv[optind - 1]);
	if (optopt)
		die_usage("unknown option '-%c' (see --help)", optopt);
	unknown_long(argv[optind - 1]);
}

/* A second option selecting a mode. */
static void select_mode(const struct opt *op, struct options *o,
			int *selected)
{
	const unsigned mem = ACC | PER | TRF;
	int m = op->selects;

	if (*selected >= 0 && *selected != m)
		die_usage("%s and %s are separate %s; give one",
			  mode_names[*selected], mode_names[m],
			  !((M(*selected) | M(m)) & ~mem) ? "calculators" : "modes");
	*selected = m;
	o->mode = (enum mode_id)m;
}

static void record(struct options *o, int i)
{
	int j;

	for (j = 0; j < o->n_given; j++)
		if (o->given[j] == i)
			return;
	if (o->n_given < (int)(sizeof o->given / sizeof o->given[0]))
		o->given[o->n_given++] = i;
}

/* ---- Checks, once the mode is known ---- */

static _Noreturn void refuse(const struct opt *op, enum mode_id m)
{
	char name[40];
	size_t i;

	snprintf(name, sizeof name, "--%s", op->name);
	for (i = 0; i < sizeof refusals / sizeof refusals[0]; i++)
		if ((!refusals[i].groups || (refusals[i].groups & op->groups)) &&
		    (refusals[i].modes & M(m)))
			die_usage(refusals[i].fmt, name, mode_names[m]);
	die_usage("%s does not apply to %s", name, mode_names[m]);
}

/* Options that go together only in some ways. */
static void check_pairs(const struct options *o)
{
	int sweep = o->block.is_sweep || o->regs.is_sweep ||
		    o->smem.is_sweep || o->static_smem.is_sweep;

	if ((o->chart || o->plot) && sweep)
		die_usage("--chart and --plot draw one configuration, not a sweep "
			  "or a compiler report");
	if (o->have_l2 && o->measure)
		die_usage("--persist --measure runs on the device, with its own "
			  "L2 figures: leave out --l2");
	if (o->api && o->gpu)
		die_usage("--api and --measure run on this machine's GPU; --gpu "
			  "names a model (use --device N)");
	/* A trace's cluster launches use it too: no --cluster needed. */
	if (o->layout_text && !o->cluster.n && !o->ptxas &&
	    !o->partition.given && o->mode != MODE_LAUNCHES &&
	    o->mode != MODE_TRACE)
		die_usage("--layout goes with --cluster, --partition, "
			  "--launches or --trace");
	if ((option_given(o, "partition-flags") ||
	     option_given(o, "partition-part")) && !o->partition.given)
		die_usage("--partition-flags and --partition-part go with "
			  "--partition MIN_SMS");
	if (o->trace_calls && o->achieved)
		die_usage("--achieved measures the launches of CUPTI's activity "
			  "records: it does not go with --trace-calls");
	if (o->partition.given && o->measure)
		die_usage("--measure launches on the whole GPU: it does not go "
			  "with --partition (--api asks the driver inside the "
			  "part)");
	if (o->device_all && (o->arch || o->gpu))
		die_usage("--device all runs on each GPU of this machine, with "
			  "its own table: leave out --arch and --gpu");
	if (o->device_all && o->mode != MODE_OCCUPANCY)
		die_usage("--device all goes with an occupancy calculation");
	if (o->chart && o->format != OUT_TEXT)
		die_usage("--chart draws in the text format only (--plot FILE "
			  "writes SVG)");
}

static void check(struct options *o)
{
	int i;

	for (i = 0; i < o->n_given; i++)
		if (!(opts[o->given[i]].modes & M(o->mode)))
			refuse(&opts[o->given[i]], o->mode);
	if (o->measure)
		o->api = 1;
	o->have_block = option_given(o, "block");
	o->regs_given = option_given(o, "regs");
	o->barriers_given = option_given(o, "barriers");
	o->partition.given = option_given(o, "partition");
	check_pairs(o);
}

/* The first "--": --trace's command follows it, and occcalc never reads
 * the command's options as its own. */
static int command_start(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0)
			return i;
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--trace") == 0)
			die_usage("--trace runs the command given after '--': "
				  "occcalc --trace [OPTIONS] -- COMMAND [ARGS...]");
	return argc;
}

/* Parses options up to end (the "--"); what follows is --trace's
 * command, or for the other modes more arguments, as getopt would have
 * taken them. */
static int take_command(int argc, char **argv, int end, struct options *o)
{
	int i;

	if (o->mode == MODE_TRACE) {
		if (optind < end)
			die_usage("unexpected argument '%s' before '--' (the "
				  "command goes after it)", argv[optind]);
		if (end + 1 >= argc)
			die_usage("--trace: no command after '--'");
		o->command = argv + end + 1;
		return optind = argc;
	}
	if (end < argc) {               /* the "--" taken out */
		for (i = end; i + 1 < argc; i++)
			argv[i] = argv[i + 1];
		argv[--argc] = NULL;
	}
	return argc;
}

void options_parse(int argc, char **argv, struct options *o)
{
	struct option longs[NOPTS + 1];
	char shorts[2 * NOPTS + 2];
	int c, i, selected = -1, end;

	defaults(o);
	getopt_tables(longs, shorts);
	opterr = 0;
	end = command_start(argc, argv);
	while ((c = getopt_long(end, argv, shorts, longs, NULL)) != -1) {
		i = opt_index(c);
		if (i < 0 || c == ':')
			bad_option(c, argv);
		if (strcmp(opts[i].name, "help") == 0) {
			/* --help TOPIC as well as --help=TOPIC */
			if (!optarg && optind < end && argv[optind][0] != '-')
				optarg = argv[optind++];
			help_print(stdout, optarg);
			flush_stdout();
			cli_exit(EXIT_SUCCESS);
		}
		if (strcmp(opts[i].name, "completion") == 0) {
			completion_print(stdout, optarg);
			flush_stdout();
			cli_exit(EXIT_SUCCESS);
		}
		if (strcmp(opts[i].name, "version") == 0) {
			printf("occcalc %s\n", OCC_VERSION);
			flush_stdout();
			cli_exit(EXIT_SUCCESS);
		}
		if (opts[i].selects >= 0)
			select_mode(&opts[i], o, &selected);
		take(&opts[i], optarg, o);
		record(o, i);
	}
	argc = take_command(argc, argv, end, o);
	/* --kernels a.o b.o, or a shell's glob: the other paths. */
	if (optind < argc && o->ptxas) {
		o->more_kernels = (const char *const *)argv + optind;
		o->n_more_kernels = argc - optind;
		optind = argc;
	}
	if (optind < argc && o->launches) {
		o->more_launches = (const char *const *)argv + optind;
		o->n_more_launches = argc - optind;
		optind = argc;
	}
	if (optind < argc)
		die_usage("unexpected argument '%s' (see --help)", argv[optind]);
	check(o);
}

int option_given(const struct options *o, const char *name)
{
	int i;

	for (i = 0; i < o->n_given; i++)
		if (strcmp(opts[o->given[i]].name, name) == 0)
			return 1;
	return 0;
}

void options_free(struct options *o)
{
	size_t i;

	for (i = 0; i < NOPTS; i++)
		if (opts[i].kind == ARG_SEQ || opts[i].kind == ARG_SHAPES)
			seq_free(dest(&opts[i], o));
	seq_free(&o->access.elem);      /* --elem's, an ARG_FN */
	seq_free(&o->access.stride);    /* --stride's, an ARG_FN */
}
