#!/usr/bin/env bash
# gpu-bundle.sh: the release build and the shared libraries it loads, in
# one archive, for a GPU machine that has a driver and CUDA's libraries
# but not this project's build dependencies (libyaml, SQLite, hwloc,
# OpenBLAS, Open MPI): build where the packages are, check where the GPU
# is. scripts/gpu-check.sh runs from it with SN_BUNDLE=FILE.
#
#   scripts/gpu-bundle.sh [FILE]    default build/supernode-bundle.tar.xz
#
# Left out: the C library and the compiler's runtime (the GPU machine's
# own, which must be as new as this machine's: glibc 2.36 on Debian 12),
# and CUDA's libraries (cudart, cuBLAS, NCCL: the GPU machine's own,
# matched to its driver). Open MPI's plugins come along, for one rank
# started without mpirun (a singleton, told to start no daemon).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/supernode-bundle.tar.xz}
mpi=/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3

# the plugin is built here, where there may be no GPU
make -j"$(nproc)" HAVE_CUDA=1 all >/dev/null
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib" "$stage/mpi"
cp build/rel/supernode build/rel/supernode-cuda.so "$stage/bin/"
# the plugins a singleton loads: the rest need libraries (UCX, verbs,
# libfabric) a GPU machine without this image may lack, and are skipped
for p in ess_singleton ess_env pmix_isolated pml_ob1 btl_self btl_vader \
    bml_r2 coll_basic coll_libnbc coll_self coll_tuned coll_inter \
    coll_sm osc_sm osc_pt2pt allocator_basic allocator_bucket \
    rcache_grdma mpool_hugepage shmem_mmap shmem_posix patcher_overwrite \
    state_app errmgr_default_app routed_direct rml_oob oob_tcp \
    grpcomm_direct schizo_ompi schizo_orte pstat_linux reachable_weighted \
    sec_basic vprotocol_pessimist; do
    [[ -f "$mpi/mca_$p.so" ]] && cp "$mpi/mca_$p.so" "$stage/mpi/"
done
# every library the binaries and plugins resolve, less the system's own
# and CUDA's
for f in "$stage"/bin/* "$stage"/mpi/*; do ldd "$f"; done |
    awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u |
    grep -v -E '/(libc|libm|libdl|librt|libpthread|libgcc_s|libstdc\+\+)\.so' |
    grep -v -E '/(libcudart|libcublas|libcublasLt|libnccl|libcuda)\.so' |
    while read -r lib; do cp -L "$lib" "$stage/lib/"; done
mkdir -p "$(dirname "$out")"
tar -C "$stage" -cJf "$out" bin lib mpi
echo "$out: $(du -h "$out" | cut -f1), $(ls "$stage/lib" | wc -l) libraries, $(ls "$stage/mpi" | wc -l) MPI plugins"
