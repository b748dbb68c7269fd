#!/usr/bin/env bash
# gpu-check.sh: build supernode with CUDA and run the cuda bench backend on
# the machine's first GPU, in under 8 minutes: every device test, the
# collectives on one rank with their data checked, the check catching
# injected corruption, the figures docs/benchmarks.md records (GEMM
# against the catalog's dense peak, memory against HBM bandwidth, host to
# device and back), `bench --lock-clocks` and `bench power` (the
# efficiency curve; both put the GPU back), and `supernode doctor`
# against the driver's NVML (docs/doctor.md records what it found).
#
#   scripts/gpu-check.sh            results in a temporary directory
#   OUT=dir scripts/gpu-check.sh    results (JSON, tables, log) under dir
#   SN_BUNDLE=file scripts/gpu-check.sh
#                                   no build: run from what
#                                   scripts/gpu-bundle.sh packed on a
#                                   machine with the build dependencies
#
# Prints "N passed, N failed" last; exit 0 only when nothing failed.
# Without a GPU it says so and exits 0 after the build checks.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
pass=0
fail=0
start=$SECONDS
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader

ok() { pass=$((pass + 1)); echo "ok $1 ($((SECONDS - start)) s)"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
finish() {
    echo "results in $out"
    echo "$pass passed, $fail failed"
    [[ $fail -eq 0 ]]
    exit
}

# 1. the build: the plugin must come out of it. From a bundle, the
#    libraries it carries come first, then CUDA's where this machine keeps
#    them (the toolkit, or the wheels a Python stack brings), and Open MPI
#    runs one rank without a daemon from the plugins it carries
if [[ -n "${SN_BUNDLE:-}" ]]; then
    b=$(mktemp -d)
    if tar -C "$b" -xJf "$SN_BUNDLE" && [[ -f $b/bin/supernode-cuda.so ]]; then
        ok "bundle unpacked"
    else
        bad "bundle $SN_BUNDLE unpacked"
        finish
    fi
    cuda_libs=$(find -H /usr/local/cuda*/lib64 /usr/lib/x86_64-linux-gnu \
        /usr/local/lib/python3*/dist-packages/nvidia \
        /usr/lib/python3*/dist-packages/nvidia \
        /usr/local/lib/python3*/site-packages/nvidia \
        -maxdepth 4 \( -name 'libcublasLt.so.*' -o -name 'libnccl.so.*' \
        -o -name 'libcudart.so.*' \) 2>/dev/null |
        xargs -r -n 1 dirname | sort -u | paste -sd:)
    export LD_LIBRARY_PATH="$b/lib${cuda_libs:+:$cuda_libs}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export OMPI_MCA_mca_base_component_path=$b/mpi
    export OMPI_MCA_ess_singleton_isolated=1
    echo "CUDA libraries from: ${cuda_libs:-nowhere}" | tee "$out/build.log"
    sn=$b/bin/supernode
else
    jobs=$(nproc 2>/dev/null || echo 4)
    if make -j"$jobs" all >"$out/build.log" 2>&1 &&
            [[ -f build/rel/supernode-cuda.so ]]; then
        ok "build with the cuda plugin"
    else
        bad "build with the cuda plugin (see $out/build.log)"
        tail -n 20 "$out/build.log"
        finish
    fi
    sn=build/supernode
fi

# 2. is there a GPU at all? The driver's own list decides: a GPU that
#    nvidia-smi lists but the backend cannot use (a driver older than the
#    CUDA runtime the build used, a missing device node) is a failure,
#    not a skip
gpus=0
nvidia-smi -L >"$out/gpus.txt" 2>&1 && gpus=$(grep -c '^GPU ' "$out/gpus.txt")
"$sn" bench --backend cuda compute --gemm-size 256 -n 2 -w 1 \
    >"$out/probe.out" 2>"$out/probe.err"
rc=$?
if [[ $rc -eq 3 ]] && grep -q "no CUDA device" "$out/probe.err"; then
    if [[ $gpus -gt 0 ]]; then
        bad "cuda backend sees no GPU while nvidia-smi lists $gpus: $(head -c 300 "$out/probe.err")"
        finish
    fi
    echo "skip: $(cat "$out/probe.err")"
    ok "cuda backend skips without a GPU"
    finish
fi
[[ $rc -eq 0 ]] && ok "cuda backend starts" ||
    { bad "cuda backend starts (exit $rc: $(head -c 300 "$out/probe.err"))"; finish; }

# the catalog entry for this GPU, for --spec: the default spec with its
# accelerator swapped and its scale-up domain cut to 8 (what every
# catalog GPU here joins); only the accelerator's peaks matter for one
# GPU. PCIe and NVL boards have lower clocks and power than the SXM
# parts the catalog lists: no expected values for them.
name=$(head -n 1 "$out/gpus.txt")
acc=""
case "$name" in
*PCIe* | *NVL*) ;;
*H200*) acc=h200-sxm-141gb ;;
*H100*) acc=h100-sxm5-80gb ;;
*B200*) acc=b200-hgx ;;
*A100*) acc=a100-sxm4-80gb ;;
esac
spec=()
if [[ -n "$acc" ]]; then
    "$sn" spec default | sed -e "s/^accelerator: .*/accelerator: $acc/" \
        -e "s/^  accelerators: .*/  accelerators: 8/" >"$out/spec.yaml"
    if "$sn" spec check "$out/spec.yaml" >"$out/spec.err" 2>&1; then
        spec=(--spec "$out/spec.yaml")
    else
        bad "spec for $acc: $(tail -n 1 "$out/spec.err")"
    fi
else
    echo "note: no catalog entry for '$name': figures without expected values"
fi

# 3. doctor against the driver's NVML first (seconds; a bench that
#    hangs must not cost it): every check on this node, kept for
#    docs/doctor.md; a FAIL there is a finding about the machine, so
#    the step counts as done when doctor ran and reported NVML's GPUs
"$sn" doctor --format json >"$out/doctor.json" 2>"$out/doctor.err"
rc=$?
"$sn" doctor >"$out/doctor.txt" 2>/dev/null
if [[ $rc -le 1 ]] && grep -q '"schema": "supernode.doctor/1"' \
        "$out/doctor.json" && grep -q '"nvml.devices"' "$out/doctor.json"; then
    ok "doctor with the driver's NVML (exit $rc)"
else
    bad "doctor with the driver's NVML (exit $rc)"
    head -n 5 "$out/doctor.err"
fi
cat "$out/doctor.txt"

# 4. every device test on one GPU, collectives on one rank, data checked
timeout 420 "$sn" bench --backend cuda compute memory h2d d2h coll latency \
    -b 8 -e 256M -f 8 --latency-iters 2000 "${spec[@]}" \
    --json "$out/gpu-bench.json" >"$out/gpu-bench.txt" 2>"$out/gpu-bench.err"
rc=$?
if [[ $rc -eq 0 ]] && grep -q '"complete": true' "$out/gpu-bench.json" &&
        grep -q "TFLOP/s" "$out/gpu-bench.txt" &&
        grep -q "# Out of bounds values : 0 OK" "$out/gpu-bench.txt"; then
    ok "compute memory h2d d2h coll latency"
else
    bad "compute memory h2d d2h coll latency (exit $rc)"
    tail -n 20 "$out/gpu-bench.err"
fi

# 4b. what only a GPU can show: device state read through NVML around
#     each result, the driver, CUDA and NCCL versions, and no figure above
#     the catalog's peak (that would be a wrong FLOP or byte count)
j=$out/gpu-bench.json
if [[ -s $j ]]; then
    why=""
    grep -q '"sm_clock_hz": [0-9]' "$j" || why+=" no SM clock;"
    grep -q '"power_w": [0-9]' "$j" || why+=" no power;"
    grep -q '"throttle_reasons": [0-9]' "$j" || why+=" no throttle reasons;"
    [[ -z "$why" ]] && ok "device state through NVML" ||
        bad "device state through NVML:$why"
    why=""
    for k in driver cuda_runtime cuda_driver nccl blas; do
        grep -q "\"$k\": \"" "$j" || why+=" $k;"
    done
    [[ -z "$why" ]] && ok "versions recorded" || bad "versions missing:$why"
    if [[ ${#spec[@]} -gt 0 ]]; then
        grep -q '"source": "catalog bf16_flops"' "$j" &&
            grep -q '"source": "catalog hbm_bw"' "$j" &&
            ok "GEMM and memory beside the catalog" ||
            bad "GEMM and memory beside the catalog"
        # GEMM and memory results only: a collective on one rank beside
        # `sim coll` of the design is not a peak
        over=$(awk '/"test": "/ { t = $2 }
                    /"efficiency":/ && t ~ /compute|memory/ {
                        v = $2; gsub(/[^0-9.eE+-]/, "", v)
                        if (v + 0 > 1.10) n++ }
                    END { print n + 0 }' "$j")
        [[ $over -eq 0 ]] && ok "no GEMM or memory figure above 110% of the catalog" ||
            bad "$over GEMM or memory figures above 110% of the catalog"
    fi
fi

# 5. the data check on the GPU catches corruption (test-only fault)
timeout 120 "$sn" bench --backend cuda coll --ops allreduce,broadcast \
    -b 1M -e 1M -n 3 --inject corrupt:rank=0 >"$out/corrupt.txt" \
    2>"$out/corrupt.err"
rc=$?
if [[ $rc -eq 1 ]] && grep -q "FAILED" "$out/corrupt.txt"; then
    ok "corruption caught on the GPU"
else
    bad "corruption caught on the GPU (exit $rc)"
fi

# 5b. NCCL reads the topology file supernode writes (NCCL_TOPO_FILE): the
#     design's node with GPU 0's placeholder bus id replaced by the real
#     one (NCCL keeps only the GPUs it finds on the machine), one rank of
#     collectives, and NCCL's own log saying it loaded the file and found
#     nothing in it to refuse ("XML ..." errors, "wrong version")
topo_spec=examples/dgx-h100-superpod-su.yaml
[[ ${#spec[@]} -eq 2 ]] && topo_spec=${spec[1]}
real=$(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader -i 0 |
    tr 'A-F' 'a-f' | sed 's/^0000\(....:\)/\1/')
if "$sn" export nccl-topo "$topo_spec" -o "$out/topo-design.xml" \
        2>"$out/topo.err"; then
    mine=$(grep -B1 '<gpu dev="0"' "$out/topo-design.xml" |
        sed -n 's/.*<pci busid="\([^"]*\)".*/\1/p' | head -n 1)
    sed "s/busid=\"$mine\"/busid=\"$real\"/" "$out/topo-design.xml" \
        >"$out/topo.xml"
    NCCL_TOPO_FILE=$out/topo.xml NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH \
        NCCL_DEBUG_FILE=$out/nccl-topo.%h.%p.log timeout 120 \
        "$sn" bench --backend cuda coll --ops allreduce -b 1M -e 1M -n 3 \
        >"$out/topo-bench.txt" 2>&1
    rc=$?
    if [[ $rc -eq 0 ]] && cat "$out"/nccl-topo.*.log 2>/dev/null |
            grep -q "Loading topology file $out/topo.xml" &&
            ! cat "$out"/nccl-topo.*.log |
            grep -qE "XML (Parse|Mismatch|Topology)|too long|wrong version"; then
        ok "NCCL loaded the exported topology file (GPU 0 at $real)"
    else
        bad "NCCL with the exported topology file (exit $rc)"
        cat "$out"/nccl-topo.*.log 2>/dev/null | grep -E "WARN|XML" | head
    fi
else
    bad "export nccl-topo $topo_spec: $(tail -n 1 "$out/topo.err")"
fi

# 5c. --lock-clocks: the GEMM at the GPU's highest locked clocks, the
#     clocks recorded, and put back (NVML changes clocks for root only:
#     without root the refusal must say so, exit 3)
limit_before=$(nvidia-smi -i 0 --query-gpu=power.limit --format=csv,noheader)
timeout 120 "$sn" bench --backend cuda compute --gemm-size 8192 -n 10 \
    --lock-clocks --json "$out/lock.json" >"$out/lock.txt" 2>"$out/lock.err"
rc=$?
if [[ $(id -u) -ne 0 ]]; then
    [[ $rc -eq 3 ]] && grep -q "no permission" "$out/lock.err" &&
        ok "--lock-clocks refused without root, saying so" ||
        bad "--lock-clocks without root (exit $rc)"
elif [[ $rc -eq 0 ]] && grep -q '"sm_mhz":' "$out/lock.json"; then
    ok "--lock-clocks held and recorded"
    grep "clocks locked" "$out/lock.txt"
else
    bad "--lock-clocks (exit $rc)"
    tail -n 5 "$out/lock.err"
fi
nvidia-smi -i 0 --query-gpu=clocks.sm,clocks.mem,clocks.max.sm \
    --format=csv >"$out/clocks-after.csv" 2>&1

# 5d. bench power: the efficiency curve over four power limits, and the
#     limit put back afterwards
timeout 180 "$sn" bench power --backend cuda --steps 4 --seconds 2 \
    --gemm-size 8192 --json "$out/power.json" >"$out/power.txt" \
    2>"$out/power.err"
rc=$?
limit_after=$(nvidia-smi -i 0 --query-gpu=power.limit --format=csv,noheader)
if [[ $(id -u) -ne 0 ]]; then
    [[ $rc -eq 3 ]] && grep -q "no permission" "$out/power.err" &&
        ok "bench power refused without root, saying so" ||
        bad "bench power without root (exit $rc)"
elif [[ $rc -eq 0 ]] && [[ "$limit_after" == "$limit_before" ]] &&
        grep -q '"schema": "supernode.power/1"' "$out/power.json"; then
    ok "bench power curve, limit back at $limit_after"
else
    bad "bench power (exit $rc, limit $limit_before -> $limit_after)"
    tail -n 5 "$out/power.err"
fi

# 6. the figures, for docs/benchmarks.md
cat "$out/gpu-bench.txt"
echo "--- bench --lock-clocks (compute):"
cat "$out/lock.txt" 2>/dev/null
cat "$out/clocks-after.csv" 2>/dev/null
echo "--- bench power:"
cat "$out/power.txt" 2>/dev/null
echo "took $((SECONDS - start)) s"
[[ $((SECONDS - start)) -le 480 ]] && ok "under 8 minutes" ||
    bad "took more than 8 minutes"
finish
