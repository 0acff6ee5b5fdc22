/*
 * opts_table.c - every option, defined once in opts[]: its names, its
 * argument and range, where its value goes, the modes that use it (or
 * all of them, or those that read the tables' directory), the mode it
 * selects, the groups its refusal comes from, and its help. options.c
 * parses and checks with it; help.c and completion.c print from it.
 */
#include <stddef.h>

#include "cli.h"
#include "opts.h"

#define SMEM_MAX OCC_SWEEP_SMEM_MAX    /* the library's bound (query_sweep.h) */

/* The modes the options name (the one each selects, those each applies
 * to), beyond those cli.h declares for all. */
extern const struct mode mode_access, mode_info, mode_list_archs,
	mode_list_gpus, mode_list_devices, mode_list_fields;

#define O(field) offsetof(struct options, field)
#define OCC &mode_occupancy
#define KER &mode_kernels
#define ACC &mode_access
#define PER &mode_persist
#define INF &mode_info
#define TRF &mode_traffic
#define LNC &mode_launches
#define TRC &mode_trace
/* The modes that read launches: --launches, and --trace once its command
 * has run. */
#define LAU LNC, TRC
#define CFG OCC, KER
#define MODES(...) .modes = { __VA_ARGS__ }
#define NUM(lo, hi) .kind = ARG_NUM, .min = lo, .max = hi
#define SEQ(lo, hi) .kind = ARG_SEQ, .min = lo, .max = hi
#define SHAPES(lo, hi) .kind = ARG_SHAPES, .min = lo, .max = hi
#define FLAG(field, v) .kind = ARG_FLAG, .dest = O(field), .set = v
#define MODE(m) .selects = m, MODES(m)

const struct opt opts[] = {
	{ "arch", 'a', ARG_STR, "ARCH", .dest = O(arch),
	  .topic = T_KERNEL,
	  .complete = "@archs",
	  MODES(CFG, ACC, PER, INF, TRF),
	  .help = "architecture: sm_90, 90 or 9.0 (see "
	  "--list-archs);\nwithout it, the GPU's (--device); a list\n"
	  "(sm_80,sm_90): each in turn" },
	{ "device", 0, ARG_FN, "N", .parse = arg_device,
	  .topic = T_KERNEL,
	  MODES(OCC, KER, ACC, PER, INF, TRF),
	  .help = "the CUDA device to use without --arch (default 0);\n'all': "
	  "every GPU of this machine, one row each;\n--kernels: the image "
	  "that GPU loads" },
	{ "block", 'b', SHAPES(1, OCC_SWEEP_BLOCK_MAX), .metavar = "N",
	  .dest = O(block),
	  .topic = T_KERNEL,
	  .def = "0", MODES(CFG, TRF), .groups = G_OCC,
	  .help = "threads per block, or its shape (16x16, "
	  "8x8x4);\nwithout it, the block size that maximises\noccupancy" },
	{ "regs", 'r', SEQ(0, OCC_MAX_REGS_ANY_ARCH), .metavar = "N",
	  .topic = T_KERNEL,
	  .dest = O(regs), .def = "0", MODES(OCC),
	  .groups = G_OCC, .help = "registers per thread (default 0)" },
	{ "smem", 's', SEQ(0, SMEM_MAX), .metavar = "BYTES", .dest = O(smem),
	  .topic = T_KERNEL,
	  .def = "0", MODES(CFG), .groups = G_OCC,
	  .help = "dynamic shared memory per block (default 0);\nsuffixes K "
	  "and M multiply by 1024 and 1048576" },
	{ "static-smem", 'S', SEQ(0, SMEM_MAX), .metavar = "BYTES",
	  .topic = T_KERNEL,
	  .dest = O(static_smem), .def = "0", MODES(OCC),
	  .groups = G_OCC, .help = "static shared memory per block (default 0)" },
	{ "smem-per-thread", 0, NUM(0, SMEM_MAX), .metavar = "BYTES",
	  .topic = T_KERNEL,
	  .dest = O(growth.per_thread), MODES(CFG),
	  .groups = G_OCC, .help = "dynamic shared memory that grows with the "
	  "block,\nadded to --smem: per thread" },
	{ "smem-per-warp", 0, NUM(0, SMEM_MAX), .metavar = "BYTES",
	  .topic = T_KERNEL,
	  .dest = O(growth.per_warp), MODES(CFG),
	  .groups = G_OCC, .help = "the same, per warp" },
	{ "sms", 0, NUM(1, 1 << 20), .metavar = "N", .dest = O(sms),
	  .topic = T_LAUNCH,
	  MODES(CFG), .help = "SMs of the GPU: the minimum "
	  "grid that fills it,\nand the waves of --grid" },
	{ "gpu", 0, ARG_STR, "NAME", .dest = O(gpu),
	  MODES(CFG, INF, ACC, TRF, PER, LNC),
	  .topic = T_LAUNCH, .complete = "@gpus",
	  .groups = G_OCC, .help = "a GPU from the list "
	  "(--list-gpus): its SMs, and its\narchitecture unless --arch is given;"
	  "\nits L2 for --persist; also its device name\n('NVIDIA H100 80GB "
	  "HBM3') or a part of its name ('4090');\na list (H100-SXM,A100,RTX-5090): a row per "
	  "GPU;\n--launches: each launch as it would run on it" },
	{ "grid", 0, ARG_FN, "N", .parse = arg_grid, .topic = T_LAUNCH,
	  MODES(CFG, TRF), .groups = G_OCC, .help = "blocks "
	  "launched (N, NxM or NxMxK): full waves, the\nlast wave, and the "
	  "occupancy averaged over the launch" },
	{ "carveout", 'c', ARG_FN, "PCT", .parse = arg_carveout,
	  .topic = T_KERNEL,
	  MODES(CFG), .groups = G_OCC,
	  .help = "shared-memory carveout preference, 0-100 or\n'default'" },
	{ "barriers", 0, NUM(0, OCC_MAX_BARRIERS_PER_BLOCK), .metavar = "N",
	  .topic = T_KERNEL,
	  .dest = O(barriers), .def = "1", MODES(CFG),
	  .groups = G_OCC, .help = "block barriers the kernel uses, 0-16 "
	  "(default 1)" },
	{ "optin", 0, FLAG(optin, 1), MODES(CFG),
	  .topic = T_KERNEL,
	  .groups = G_OCC, .help = "allow more than sharedMemPerBlock "
	  "through\ncudaFuncAttributeMaxDynamicSharedMemorySize\n(the default)" },
	{ "no-optin", 0, FLAG(optin, 0), MODES(CFG),
	  .topic = T_KERNEL,
	  .groups = G_OCC, .help = "the kernel does not raise its dynamic limit" },
	{ "kernels", 0, ARG_STR, "PATH", .dest = O(ptxas), MODE(&mode_kernels),
	  .topic = T_KERNELS,
	  .groups = G_OCC, .help = "the kernels of a binary (cubin, fatbin, "
	  "object,\nexecutable, shared library), a directory of them,\nor a "
	  "compiler report ('nvcc -Xptxas -v',\n'cuobjdump "
	  "--dump-resource-usage'); '-': standard\ninput. One row per kernel "
	  "and architecture" },
	{ "cluster", 0, ARG_FN, "SHAPE", .parse = arg_cluster, MODES(CFG),
	  .topic = T_LAUNCH,
	  .groups = G_OCC, .help = "thread-block clusters of N "
	  "CTAs, or AxB[xC]: the\nclusters the GPU holds at once (a list, a "
	  "range,\nor 'best': the size with the most CTAs resident)" },
	{ "layout", 0, ARG_FN, "LAYOUT", .parse = arg_layout, MODES(CFG, LAU),
	  .topic = T_LAUNCH,
	  .groups = G_OCC, .help = "the GPU's SMs per GPC for "
	  "--cluster and traced\ncluster launches, NxK for K alike: "
	  "8,16x5,18x2,2x4\n(default: the GPU's own, measured, or the "
	  "list's)" },
	{ "partition", 0, NUM(0, 1024), .metavar = "MIN_SMS",
	  .dest = O(partition.min_sms), MODES(CFG, LAU), .topic = T_LAUNCH,
	  .groups = G_OCC, .help = "compute in a part of the "
	  "GPU split into groups of\nat least MIN_SMS SMs, as "
	  "cuDevSmResourceSplitByCount\nsplits for green contexts: the part's "
	  "SMs, GPCs,\nwaves and clusters (--launches, --trace: of each\n"
	  "traced GPU)" },
	{ "partition-flags", 0, ARG_FN, "FLAGS", .parse = arg_partition_flags,
	  MODES(CFG, LAU), .topic = T_LAUNCH, .groups = G_OCC,
	  .complete = "default ignore-coscheduling max-cluster-size",
	  .help = "--partition's useFlags: ignore-coscheduling,\n"
	  "max-cluster-size (default: none)" },
	{ "partition-part", 0, ARG_FN, "PART", .parse = arg_partition_part,
	  MODES(CFG, LAU), .topic = T_LAUNCH, .groups = G_OCC,
	  .complete = "group remaining",
	  .help = "the part computed in: group (the first), group:N,\nor "
	  "remaining (default: group)" },
	{ "ptxas", 0, ARG_STR, "FILE", .dest = O(ptxas), MODE(&mode_kernels),
	  .topic = T_KERNELS,
	  .groups = G_OCC, .help = "the same as --kernels" },
	{ "kernel", 0, ARG_STR, "REGEX", .dest = O(kernel_re),
	  MODES(KER, LAU), .topic = T_KERNELS,
	  .help = "--kernels, --launches: only kernels whose "
	  "name,\ndemangled or not, matches REGEX (extended)" },
	{ "launches", 0, ARG_STR, "FILE", .dest = O(launches),
	  MODE(&mode_launches), .topic = T_LAUNCHES,
	  .help = "the launches of traces: occcalc's own or\nPyTorch "
	  "profiler (Kineto) Chrome traces, plain\nor gzip, more files "
	  "after it (one per rank):\neach launch on the GPU it ran on; text: "
	  "per\nkernel, by GPU time; csv, json, jsonl: per launch" },
	{ "by", 0, ARG_STR, "WHAT", .dest = O(by), MODES(LAU),
	  .topic = T_LAUNCHES, .complete = "kernel op",
	  .help = "--launches, --trace: the text summary's rows\nby kernel "
	  "(default) or by op, the PyTorch\noperator that launched them; a "
	  "row per GPU" },
	{ "summary", 0, FLAG(summary, 1), MODES(LAU),
	  .topic = T_LAUNCHES,
	  .help = "--launches, --trace: the summary's rows, by\nkernel "
	  "(or --by op) and GPU, in -f csv,\njson, jsonl: a row per kernel, "
	  "not per\nlaunch" },
	{ "wide", 0, FLAG(wide, 1), MODES(LAU),
	  .topic = T_LAUNCHES,
	  .help = "--launches, --trace: full kernel names in the\nsummary "
	  "(default: shortened, unless the\nterminal is wide enough)" },
	{ "annotate", 0, ARG_STR, "FILE", .dest = O(annotate),
	  MODES(LNC), .topic = T_LAUNCHES,
	  .help = "--launches: write the Kineto trace to FILE as\nit is, "
	  "with an \"occcalc\" object of the\nlaunch's figures in each "
	  "kernel's args\n(an occcalc trace: as --chrome-trace); gzip\nif "
	  "FILE ends in .gz, - for standard output" },
	{ "chrome-trace", 0, ARG_STR, "FILE", .dest = O(chrome_trace),
	  MODES(LAU), .topic = T_LAUNCHES,
	  .help = "write the launches to FILE as a Chrome trace\n(Perfetto, "
	  "chrome://tracing), each with an\n\"occcalc\" object of its "
	  "figures; gzip if\nFILE ends in .gz, - for standard output" },
	{ "compare", 0, ARG_STR, "BASELINE", .dest = O(compare),
	  MODES(KER, LNC), .topic = T_CI,
	  .help = "--kernels: the rows against BASELINE's (a "
	  "binary,\na directory, or occcalc's JSON or JSON Lines):\nthe "
	  "fields that changed, kernels added and removed;\n--launches: "
	  "per kernel and operator against a\ntrace or --launches' JSON rows" },
	{ "all", 0, FLAG(all, 1), MODES(KER, LNC),
	  .topic = T_CI,
	  .help = "--compare: list unchanged kernels too" },
	{ "all-images", 0, FLAG(all_images, 1), MODES(KER),
	  .topic = T_KERNELS,
	  .help = "--kernels: every image of each fatbin, not\nonly the one "
	  "the driver loads on the GPU\nnamed (--gpu, --arch, --api)" },
	{ "ptxas-jit", 0, FLAG(ptxas_jit, 1), MODES(KER),
	  .topic = T_KERNELS,
	  .help = "--kernels: where that image is PTX, the\nresources the "
	  "toolkit's ptxas gives for the\nGPU named (the driver's own: --api)" },
	{ "jobs", 0, NUM(1, 256), .metavar = "N", .dest = O(jobs), MODES(KER),
	  .topic = T_KERNELS,
	  .help = "--kernels: read a binary's images, "
	  "make its rows\nand (--api) load them in the driver, on N threads\n"
	  "(default: one per processor, less one from 8;\nthe output is the "
	  "same)" },
	{ "format", 'f', ARG_FN, "FMT", .parse = arg_format, .reach = REACH_ALL,
	  .topic = T_OUTPUT, .complete = "text csv json jsonl csv,noheader "
	  "csv,noheader,nounits",
	  .help = "text, csv, json or jsonl (default text);\ncsv or text "
	  "tables may add ,noheader and\n,nounits (csv,noheader,nounits as "
	  "nvidia-smi)" },
	{ "fields", 0, ARG_STR, "LIST", .dest = O(fields), .reach = REACH_ALL,
	  .topic = T_OUTPUT,
	  .help = "the fields to print, in this order, "
	  "comma-separated\n(--list-fields lists them)" },
	{ "chart", 0, FLAG(chart, 1), MODES(OCC),
	  .topic = T_OUTPUT,
	  .groups = G_OCC | G_CHART, .help = "draw occupancy against block "
	  "size, registers and\nshared memory, this configuration marked" },
	{ "plot", 0, ARG_STR, "FILE", .dest = O(plot), MODES(OCC),
	  .topic = T_OUTPUT,
	  .groups = G_OCC | G_CHART,
	  .help = "the same three charts as SVG, into FILE" },
	{ "headroom", 0, FLAG(headroom, 1), MODES(CFG),
	  .topic = T_OUTPUT,
	  .groups = G_OCC, .help = "CSV and JSON: add the register and "
	  "shared-memory\nheadroom fields (the text report always has it)" },
	{ "check", 0, ARG_FN, "EXPR", .parse = arg_check, .reach = REACH_ALL,
	  .topic = T_CI,
	  .help = "fail (exit 1) if a row breaks EXPR, as "
	  "'regs <= 128\n&& spill_stores == 0' (fields, == != < <= > >=,\n&& "
	  "|| ! and parentheses); repeatable" },
	{ "check-file", 0, ARG_STR, "FILE", .dest = O(check_file), MODES(KER),
	  .topic = T_CI,
	  .help = "per-kernel budgets, 'REGEX: EXPR' a line" },
	{ "info", 'i', ARG_NONE, MODE(&mode_info),
	  .topic = T_INFO,
	  .help = "print the architecture's table values" },
	{ "list-archs", 'l', ARG_NONE,
	  .topic = T_INFO,
	  MODE(&mode_list_archs), .help = "list the architectures that have a "
	  "table" },
	{ "list-gpus", 0, ARG_NONE, MODE(&mode_list_gpus),
	  .topic = T_INFO,
	  .help = "list the GPUs --gpu knows, in any --format" },
	{ "list-devices", 0, ARG_NONE,
	  .topic = T_INFO,
	  MODE(&mode_list_devices), .help = "list this machine's CUDA devices" },
	{ "list-fields", 0, ARG_NONE, MODE(&mode_list_fields),
	  .topic = T_INFO,
	  .help = "list every kind of row's fields, with their\ntype and "
	  "description" },
	{ "api", 0, FLAG(api, 1), MODES(CFG),
	  .topic = T_GPU,
	  .groups = G_OCC | G_GPU, .help = "also ask the runtime's occupancy API "
	  "about a\ncalibrated kernel with exactly these resources;\nwith "
	  "--kernels, the driver about the kernels' own\ncode" },
	{ "measure", 0, FLAG(measure, 1), MODES(OCC, ACC, PER),
	  .topic = T_GPU,
	  .groups = G_GPU, .help = "and launch it: blocks "
	  "resident per SM and\nachieved occupancy, measured (--grid N: N "
	  "blocks);\nwith --access, each pattern's bandwidth; with\n--persist, "
	  "re-reads timed without and with the plan" },
	{ "tables", 't', ARG_FN, "DIR", .parse = arg_tables,
	  .topic = T_INFO,
	  .reach = REACH_TABLES,
	  .help = "read architecture tables from DIR\n(default: "
	  "$OCCCALC_TABLES; from the build tree, the\nsource tree's; else "
	  OCC_TABLES_DIR ")" },
	{ "access", 0, ARG_FN, "OP", .parse = arg_ops, MODE(&mode_access),
	  .topic = T_ACCESS, .complete = "load store load,store",
	  .help = "load, store or load,store: the sectors and lines\none warp "
	  "instruction touches, and its efficiency" },
	{ "elem", 0, ARG_FN, "BYTES", .parse = arg_elem, .def = "4",
	  .topic = T_ACCESS,
	  MODES(ACC, TRF), .groups = G_ACCESS,
	  .help = "element size: 1, 2, 4, 8 or 16 (default 4);\n--traffic "
	  "also NAME=BYTES,... per array" },
	{ "stride", 0, ARG_FN, "N", .parse = arg_stride, .def = "1",
	  .topic = T_ACCESS,
	  MODES(ACC), .groups = G_ACCESS,
	  .help = "elements between consecutive threads "
	  "(default 1;\n0: all threads read one element;\nbelow 0: the lanes reversed)" },
	{ "offset", 0, SEQ(0, UINT64_MAX), .metavar = "N",
	  .topic = T_ACCESS,
	  .dest = O(access.offset), .def = "0", MODES(ACC),
	  .groups = G_ACCESS, .help = "elements from a 128-byte aligned base "
	  "(default 0)" },
	{ "threads", 0, SEQ(1, 32), .metavar = "N", .dest = O(access.threads),
	  .topic = T_ACCESS,
	  .def = "32", MODES(ACC, TRF), .groups = G_ACCESS,
	  .help = "active threads of the warp, 1-32 (default 32)" },
	{ "lane-xor", 0, NUM(0, 31), .metavar = "MASK",
	  .topic = T_ACCESS,
	  .dest = O(access.lane_xor), MODES(ACC),
	  .groups = G_ACCESS, .help = "thread i takes thread (i ^ MASK)'s "
	  "element" },
	{ "total", 0, FLAG(access.total, 1), MODES(ACC),
	  .topic = T_ACCESS,
	  .groups = G_ACCESS, .help = "add a line summing the rows: one "
	  "kernel's accesses" },
	{ "traffic", 0, ARG_STR, "TEXT", .dest = O(traffic.text),
	  .topic = T_TRAFFIC,
	  MODE(&mode_traffic), .help = "a kernel's accesses as C, 'z[i] = x[i] "
	  "+ y[i]',\nindexed by i, threadIdx, blockIdx (a tile of a\n2-D or "
	  "3-D grid too): the launch's\ninstructions, requests, sectors and "
	  "bytes,\nlevel by level (--grid and --block, or --count)" },
	{ "count", 0, SEQ(1, UINT64_MAX), .metavar = "N",
	  .topic = T_TRAFFIC,
	  .dest = O(traffic.count), MODES(TRF),
	  .groups = G_TRAFFIC, .help = "threads launched, instead of --grid "
	  "and --block\n(if (i < N) in blocks of a multiple of 32)" },
	{ "define", 0, ARG_STR, "NAME=N,...", .dest = O(traffic.defines),
	  .topic = T_TRAFFIC,
	  MODES(TRF), .groups = G_TRAFFIC, .help = "integer "
	  "constants the index names, as\nN=4096,stride=4 for x[N - i], "
	  "x[i*stride]" },
	{ "dlcm", 0, ARG_FN, "ca|cg", .parse = arg_dlcm, MODES(TRF),
	  .topic = T_TRAFFIC, .complete = "ca cg",
	  .groups = G_TRAFFIC, .help = "loads as compiled with "
	  "-Xptxas -dlcm=ca (cached in\nL1) or cg (L2 only); default: the "
	  "architecture's" },
	{ "persist", 0, SEQ(1, UINT64_C(1) << 48), .metavar = "BYTES",
	  .topic = T_PERSIST,
	  .dest = O(persist), MODE(&mode_persist), .help = "plan L2 persistence "
	  "for data re-read by a kernel:\nthe set-aside, the window, the "
	  "hitRatio, the code" },
	{ "streams", 0, NUM(1, 1024), .metavar = "N", .dest = O(streams),
	  .topic = T_PERSIST,
	  .def = "1", MODES(PER), .groups = G_PERSIST,
	  .help = "concurrent streams sharing the set-aside (default 1)" },
	{ "l2", 0, ARG_FN, "SIZE:MAX:WINDOW", .parse = arg_l2, MODES(PER),
	  .topic = T_PERSIST,
	  .groups = G_PERSIST, .help = "the L2 figures "
	  "(l2CacheSize,\npersistingL2CacheMaxSize, accessPolicyMaxWindowSize)"
	  "\ninstead of the device's" },
	{ "trace", 0, ARG_NONE, MODE(&mode_trace),
	  .topic = T_TRACE, .metavar = "-- COMMAND",
	  .help = "run COMMAND [ARGS...] (after --) with occcalc's\nCUPTI "
	  "injection library: every kernel launch of\nit and of the "
	  "processes it starts, then their\noccupancy; its exit status is "
	  "occcalc's" },
	{ "trace-out", 0, ARG_STR, "PATH", .dest = O(trace_out), MODES(TRC),
	  .topic = T_TRACE,
	  .help = "--trace: keep the trace files: PATH a file\n(FILE.PID for "
	  "each process after the first)\nor a directory (default: a "
	  "temporary one,\nremoved)" },
	{ "trace-calls", 0, FLAG(trace_calls, 1), MODES(TRC),
	  .topic = T_TRACE,
	  .help = "--trace: take the launches from CUPTI's\ncallback API at "
	  "each launch call, not its\nkernel activity records: cheaper, "
	  "with no\nGPU times and no carveout (the largest is\nassumed)" },
	{ "achieved", 0, ARG_FN, "[=N[,L]]", .parse = arg_achieved,
	  .optional = 1, MODES(TRC), .topic = T_TRACE,
	  .help = "--trace: measure achieved occupancy in the\nsame run "
	  "(CUPTI's range profiler, a range a\nlaunch) of the first L "
	  "launches of each\nkernel (default 3), shown for the N kernels\n"
	  "with the most GPU time (default 10, or all)" },
	{ "help", 'h', ARG_NONE, .metavar = "[TOPIC]", .optional = 1,
	  .reach = REACH_ALL, .topic = T_INFO, .complete = "@topics",
	  .help = "print this help (a TOPIC's, or 'all') and\nexit" },
	{ "completion", 0, ARG_STR, "SHELL", .dest = O(completion),
	  .reach = REACH_ALL, .topic = T_INFO, .complete = "bash zsh",
	  .help = "print the completion script for bash or zsh\n(what "
	  "make install installs) and exit" },
	{ "version", 'V', ARG_NONE, .reach = REACH_ALL,
	  .topic = T_INFO,
	  .help = "print the version and exit" },
};

const size_t opts_n = sizeof opts / sizeof opts[0];
_Static_assert(sizeof opts / sizeof opts[0] <= OPTS_MAX,
	       "getopt's tables hold OPTS_MAX options");
