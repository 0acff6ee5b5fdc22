# corpora.sh - where each fuzz harness's inputs come from, relative to the
# source tree: the real fixtures as seeds, a few hand seeds, and the kept
# reproducers (t/fuzz-repro/HARNESS), which make check replays.
# Sourced by fuzz/run.sh and t/fuzz-regress.sh.
corpora() {
	case $1 in
	tables) echo "data/arch-tables t/fuzz-repro/tables" ;;
	usage) echo "t/fixtures t/fuzz-repro/usage" ;;
	gpus) echo "data/arch-tables t/fuzz-repro/gpus" ;;
	partition) echo "fuzz/seeds/partition t/fuzz-repro/partition" ;;
	size) echo "fuzz/seeds/size t/fuzz-repro/size" ;;
	seq) echo "fuzz/seeds/seq t/fuzz-repro/seq" ;;
	binary) echo "t/fixtures/bin t/fixtures/ar t/fixtures/ptx t/fuzz-repro/binary" ;;
	triton) echo "t/fixtures/triton-cache fuzz/seeds/triton t/fuzz-repro/triton" ;;
	cli) echo "fuzz/seeds/cli t/fuzz-repro/cli" ;;
	expr) echo "fuzz/seeds/expr t/fuzz-repro/expr" ;;
	baseline) echo "fuzz/seeds/baseline t/fuzz-repro/baseline" ;;
	traffic) echo "fuzz/seeds/traffic t/fuzz-repro/traffic" ;;
	launches) echo "t/fixtures/launches fuzz/seeds/launches t/fuzz-repro/launches" ;;
	annotate) echo "t/fixtures/launches fuzz/seeds/launches t/fuzz-repro/launches" ;;
	json) echo "fuzz/seeds/json fuzz/seeds/baseline fuzz/seeds/triton" ;;
	*) return 1 ;;
	esac
}
