# common.bash: sourced by the bench/*.sh that time the library in one
# process (not a benchmark itself: run.sh runs bench/*.sh only).
# bench_build NAME: build the release library and bench/NAME.c against it
# into build/bench/NAME.
bench_build() {
    make -s all
    mkdir -p build/bench
    cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude "bench/$1.c" \
        build/rel/libsupernode.a $(pkg-config --libs yaml-0.1 sqlite3 \
        hwloc openblas ompi-c 2>/dev/null) -lm -lpthread -ldl \
        -o "build/bench/$1"
}
