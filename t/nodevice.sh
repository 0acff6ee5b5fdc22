#!/bin/sh
# nodevice.sh - on a machine without a CUDA device (CI's), what needs one
# says so in one line and exits non-zero. t/gpu.sh tests the device.
. "$T/lib.sh"

if "$OCCCALC" --list-devices >/dev/null 2>&1; then
	skip_all "this machine has a CUDA device (t/gpu.sh tests it)"
fi


expect 1 "--api needs a CUDA device: " --api --block 128 --regs 40
expect 1 "--measure needs a CUDA device: " --measure --block 128
expect 1 "--measure needs a CUDA device: " --measure --arch sm_90 --block 128 --grid 1000
expect 1 "--measure needs a CUDA device: " --measure --block 64:1024:64 --format csv
expect 1 "no CUDA device" --list-devices
expect 1 "no CUDA device" --list-devices --format json
expect 2 "no architecture: no CUDA device" --block 128
expect 2 "name one with --arch (e.g. --arch sm_90" --block 128
expect 2 "no architecture: no CUDA device" --info
expect 2 "no architecture: no CUDA device" --device 1 --block 128
expect 1 "--api needs a CUDA device: " --api --block 128 --cluster 2
expect 1 "--measure needs a CUDA device: " --measure --block 128 --cluster 2 --layout 16
expect 2 "no architecture: no CUDA device" --block 128 --cluster 2
expect 1 "--device all: no CUDA device" --device all --block 128
expect 1 "--device all: no CUDA device" --device all --block 128 --cluster 2,4 --format csv
expect 1 "--device 0 names a GPU whose image of each kernel is read: no CUDA device" --kernels "$T/fixtures/bin/kernels.o" --device 0
done_testing
