# net.sh: the multi-host test cluster from network namespaces (sourced by
# suite.sh). Four hosts (h0..h3), two leaf switches (Linux bridges in
# their own namespaces, sw0 and sw1) with two hosts on each, one
# inter-switch link; every link a veth pair shaped with tbf on both ends,
# so each direction runs at its rate. Only addresses inside these
# namespaces are used.
#
#   e2e_net_up PREFIX HOST_RATE ISL_RATE   build it ("200mbit", "400mbit")
#   e2e_net_down PREFIX                    remove everything it made
#   e2e_shape PREFIX LINK RATE             set a link's rate on both ends;
#                                          LINK is h0..h3 or isl
#
# mpirun runs in a controller namespace (ctl) on sw0's bridge, unshaped.
# Namespace names are PREFIX-h0 ..., so runs with different prefixes never
# collide; everything lives inside the namespaces, so deleting them removes
# the veths, bridges and qdiscs with them.

E2E_SUBNET=10.213.7
E2E_CIDR=$E2E_SUBNET.0/24

e2e_ns() { printf '%s-%s' "$1" "$2"; }

# host i on switch i / 2
e2e_switch_of() { echo $(($1 / 2)); }

# tbf: burst 32 KiB (about 1.3 ms at 200 Mbit/s, above rate/HZ at the
# kernel's 250 Hz for rates up to 64 Mbit/s and handled by high-resolution
# timers beyond), queue of 20 ms at the rate.
e2e_tbf() { # ns dev rate [add|change]
    ip netns exec "$1" tc qdisc "${4:-add}" dev "$2" root tbf rate "$3" \
        burst 32kb latency 20ms
}

e2e_net_up() {
    local p=$1 host_rate=$2 isl_rate=$3 i sw h s
    for s in 0 1; do
        sw=$(e2e_ns "$p" "sw$s")
        ip netns add "$sw" || return 1
        ip -n "$sw" link set lo up
        ip -n "$sw" link add br0 type bridge stp_state 0 forward_delay 0 || return 1
        ip -n "$sw" link set br0 up
    done
    for i in 0 1 2 3; do
        h=$(e2e_ns "$p" "h$i")
        sw=$(e2e_ns "$p" "sw$(e2e_switch_of $i)")
        ip netns add "$h" || return 1
        ip -n "$h" link set lo up
        ip link add "e2e$$h$i" type veth peer name "e2e$$p$i" || return 1
        ip link set "e2e$$h$i" netns "$h" name eth0 || return 1
        ip link set "e2e$$p$i" netns "$sw" name "p$i" || return 1
        ip -n "$h" addr add "$E2E_SUBNET.$((i + 1))/24" dev eth0
        ip -n "$h" link set eth0 up
        ip -n "$sw" link set "p$i" master br0
        ip -n "$sw" link set "p$i" up
        e2e_tbf "$h" eth0 "$host_rate" || return 1
        e2e_tbf "$sw" "p$i" "$host_rate" || return 1
    done
    # the controller, where mpirun runs: on sw0, unshaped, so that the
    # launcher's own traffic never waits behind a shaped link it does not
    # measure
    h=$(e2e_ns "$p" ctl)
    ip netns add "$h" || return 1
    ip -n "$h" link set lo up
    ip link add "e2e$$c0" type veth peer name "e2e$$c1" || return 1
    ip link set "e2e$$c0" netns "$h" name eth0 || return 1
    ip link set "e2e$$c1" netns "$(e2e_ns "$p" sw0)" name ctl || return 1
    ip -n "$h" addr add "$E2E_SUBNET.100/24" dev eth0
    ip -n "$h" link set eth0 up
    ip -n "$(e2e_ns "$p" sw0)" link set ctl master br0
    ip -n "$(e2e_ns "$p" sw0)" link set ctl up
    ip link add "e2e$$i0" type veth peer name "e2e$$i1" || return 1
    ip link set "e2e$$i0" netns "$(e2e_ns "$p" sw0)" name isl || return 1
    ip link set "e2e$$i1" netns "$(e2e_ns "$p" sw1)" name isl || return 1
    for s in 0 1; do
        sw=$(e2e_ns "$p" "sw$s")
        ip -n "$sw" link set isl master br0
        ip -n "$sw" link set isl up
        e2e_tbf "$sw" isl "$isl_rate" || return 1
    done
}

e2e_shape() {
    local p=$1 link=$2 rate=$3 i
    case "$link" in
    isl)
        e2e_tbf "$(e2e_ns "$p" sw0)" isl "$rate" change &&
            e2e_tbf "$(e2e_ns "$p" sw1)" isl "$rate" change ;;
    h[0-3])
        i=${link#h}
        e2e_tbf "$(e2e_ns "$p" "h$i")" eth0 "$rate" change &&
            e2e_tbf "$(e2e_ns "$p" "sw$(e2e_switch_of "$i")")" "p$i" \
                "$rate" change ;;
    *) return 1 ;;
    esac
}

e2e_net_down() {
    local p=$1 n
    # veth pairs still in this namespace (a setup that failed half-way)
    for n in h0 h1 h2 h3 p0 p1 p2 p3 c0 c1 i0 i1; do
        ip link del "e2e$$$n" >/dev/null 2>&1
    done
    for n in ctl h0 h1 h2 h3 sw0 sw1; do
        if ip netns list | grep -qw "$(e2e_ns "$p" "$n")"; then
            # processes still inside (a hung rank) go first
            ip netns pids "$(e2e_ns "$p" "$n")" 2>/dev/null |
                while read -r pid; do kill -9 "$pid" 2>/dev/null; done
            ip netns del "$(e2e_ns "$p" "$n")" 2>/dev/null
        fi
    done
}
