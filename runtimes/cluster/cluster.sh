#!/usr/bin/env bash
# cluster.sh: H hosts on one machine, for the multi-host tests. Each host is a network
# namespace plus a UTS namespace (its own hostname), with one veth interface on a private
# Ethernet segment: a bridge inside a namespace of its own. Nothing is configured in the root
# namespace (no address, no route, no interface); all hosts see the same /dev/shm, so they
# share one GBA simulator fabric, each host on its own port.
#
#   cluster.sh create NAME HOSTS [--fabric DIR] [--owner PID]
#       Makes hosts h0..h{HOSTS-1} (10.77.0.1.. on eth0), a hostfile and an rsh agent for
#       OpenMPI. A cluster of the same NAME left by a killed run is removed first, as is any
#       cluster whose owner (PID, default: the caller) has exited. With --fabric, every command
#       run in host I gets GBA_DEVICE=sim:DIR#I (host I is port I of the fabric).
#   cluster.sh exec NAME HOST CMD...     run CMD in host HOST (index or hostname), as is
#   cluster.sh rsh NAME HOST CMD...      the rsh agent: run the words CMD with sh -c, as ssh does
#   cluster.sh info NAME KEY             hostfile | agent | hosts | fabric
#   cluster.sh destroy NAME              kill what runs in its hosts, remove everything (idempotent)
#   cluster.sh gc                        destroy every cluster whose owner has exited
#
# In a host's environment: GBA_CLUSTER=NAME, GBA_CLUSTER_HOST=I, and GBA_DEVICE with --fabric.
# OpenMPI:  cluster.sh exec NAME 0 mpirun --hostfile "$(cluster.sh info NAME hostfile)" \
#               --mca plm_rsh_agent "$(cluster.sh info NAME agent)" ...
# mpirun runs in host 0 and starts its daemons in the other hosts through the agent; the
# daemons' environment (GBA_DEVICE) reaches the ranks they start.
# Needs root, iproute2 (ip netns) and util-linux (unshare, nsenter).
set -u
SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
STATE_ROOT=${GBA_CLUSTER_STATE:-/run/gba-cluster}
SUBNET=10.77.0

die() { echo "cluster.sh: $*" >&2; exit 1; }
ns_sw() { echo "gbac-$1-sw"; }
ns_host() { echo "gbac-$1-h$2"; }

# start time of PID (field 22 of /proc/PID/stat), empty when it does not exist
start_time() { [ -r "/proc/$1/stat" ] && sed 's/^.*) //' "/proc/$1/stat" | cut -d' ' -f20; }

check_name() {
    [[ $1 =~ ^[A-Za-z0-9_]{1,20}$ ]] || die "cluster name '$1': use 1 to 20 letters, digits or _"
}

destroy() {
    local name=$1 dir="$STATE_ROOT/$1" ns
    # every namespace of this cluster, also those a partial create left without a state dir
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^gbac-$name-(sw|h[0-9]+)$"); do
        # processes still in a host (daemons, ranks of a killed job) were started by us there
        local pids
        pids=$(ip netns pids "$ns" 2>/dev/null)
        [ -n "$pids" ] && kill -9 $pids 2>/dev/null
        ip netns del "$ns" 2>/dev/null
        rm -rf "/etc/netns/$ns"
    done
    if [ -d "$dir/uts" ]; then
        local f
        for f in "$dir"/uts/*; do
            [ -e "$f" ] || continue
            umount "$f" 2>/dev/null
            rm -f "$f"
        done
    fi
    rm -rf "$dir"
    rmdir /etc/netns 2>/dev/null
    return 0
}

gc() {
    local d name pid st
    [ -d "$STATE_ROOT" ] || return 0
    for d in "$STATE_ROOT"/*/; do
        [ -d "$d" ] || continue
        name=$(basename "$d")
        { read -r pid st <"$d/owner"; } 2>/dev/null || { pid=; st=; }
        if [ -z "$pid" ] || [ "$(start_time "$pid")" != "$st" ]; then
            destroy "$name"
        fi
    done
    # state directories a create killed before it named them
    for d in "$STATE_ROOT"/.new.*/; do
        [ -d "$d" ] || continue
        { read -r pid st <"$d/owner"; } 2>/dev/null || { pid=; st=; }
        if [ -n "$pid" ] && [ "$(start_time "$pid")" != "$st" ]; then rm -rf "$d"; fi
    done
    # namespaces without a state dir (a create killed before it wrote one)
    for name in $(ip netns list 2>/dev/null | awk '{print $1}' | sed -n 's/^gbac-\([A-Za-z0-9_]*\)-\(sw\|h[0-9]*\)$/\1/p' | sort -u); do
        [ -d "$STATE_ROOT/$name" ] || destroy "$name"
    done
}

create() {
    local name=$1 hosts=$2 fabric= owner=$PPID i
    shift 2
    while [ $# -gt 0 ]; do
        case $1 in
            --fabric) fabric=$2; shift 2 ;;
            --owner) owner=$2; shift 2 ;;
            *) die "create: unknown option $1" ;;
        esac
    done
    [[ $hosts =~ ^[0-9]+$ ]] && [ "$hosts" -ge 1 ] && [ "$hosts" -le 200 ] || die "create: HOSTS must be 1..200, got '$hosts'"
    [ -z "$fabric" ] || [ -d "$fabric" ] || die "create: fabric $fabric does not exist (gba sim create first)"
    [ "$(id -u)" = 0 ] || die "create needs root (network namespaces)"
    command -v ip >/dev/null && command -v nsenter >/dev/null && command -v unshare >/dev/null \
        || die "needs ip (iproute2), nsenter and unshare (util-linux)"
    local st
    st=$(start_time "$owner") || die "create: owner $owner is not running"
    gc
    destroy "$name"
    local dir="$STATE_ROOT/$name" tmp
    # the state directory appears with its owner already in it, so a concurrent gc never
    # takes a cluster being made for an ownerless leftover
    mkdir -p "$STATE_ROOT" && tmp=$(mktemp -d "$STATE_ROOT/.new.XXXXXX") || die "cannot create $STATE_ROOT"
    echo "$owner $st" >"$tmp/owner" && mkdir "$tmp/uts" && mv -T "$tmp" "$dir" || die "cannot create $dir"
    # a failure half-way removes what was made
    trap 'destroy "$name"; exit 1' ERR INT TERM
    set -E
    set -e
    ip netns add "$(ns_sw "$name")"
    ip -n "$(ns_sw "$name")" link add br0 type bridge
    ip -n "$(ns_sw "$name")" link set br0 up
    : >"$dir/hostfile"
    : >"$dir/hosts"
    for i in $(seq 0 $((hosts - 1))); do
        echo "$SUBNET.$((i + 1)) h$i" >>"$dir/hosts"
    done
    for i in $(seq 0 $((hosts - 1))); do
        local ns
        ns=$(ns_host "$name" "$i")
        ip netns add "$ns"
        # both ends are made inside the switch namespace; one moves into the host
        ip -n "$(ns_sw "$name")" link add "v$i" type veth peer name eth0 netns "$ns"
        ip -n "$(ns_sw "$name")" link set "v$i" master br0 up
        ip -n "$ns" link set lo up
        ip -n "$ns" addr add "$SUBNET.$((i + 1))/24" dev eth0
        ip -n "$ns" link set eth0 up
        # `ip netns exec` bind-mounts /etc/netns/NS/* over /etc/*: the cluster's names
        mkdir -p "/etc/netns/$ns"
        { echo "127.0.0.1 localhost"; cat "$dir/hosts"; } >"/etc/netns/$ns/hosts"
        echo "h$i" >"/etc/netns/$ns/hostname"
        touch "$dir/uts/h$i"
        unshare --uts="$dir/uts/h$i" hostname "h$i"
        echo "h$i slots=64" >>"$dir/hostfile"
    done
    echo "$hosts" >"$dir/count"
    echo "$fabric" >"$dir/fabric"
    # OpenMPI splits plm_rsh_agent at spaces (and ':'), so the agent is a script of its own
    printf '#!/bin/sh\nexec %q rsh %q "$@"\n' "$SELF" "$name" >"$dir/agent"
    chmod +x "$dir/agent"
    set +e
    trap - ERR INT TERM
}

# host index from an index or a hostname
host_index() {
    local name=$1 h=$2 n
    n=$(cat "$STATE_ROOT/$name/count" 2>/dev/null) || die "no cluster $name (cluster.sh create first)"
    h=${h#h}
    [[ $h =~ ^[0-9]+$ ]] && [ "$h" -lt "$n" ] || die "cluster $name has no host '$2' (h0..h$((n - 1)))"
    echo "$h"
}

enter() {
    local name=$1 i=$2 fabric
    shift 2
    fabric=$(cat "$STATE_ROOT/$name/fabric")
    local env=(GBA_CLUSTER="$name" GBA_CLUSTER_HOST="$i")
    [ -n "$fabric" ] && env+=(GBA_DEVICE="sim:$fabric#$i")
    exec ip netns exec "$(ns_host "$name" "$i")" nsenter --uts="$STATE_ROOT/$name/uts/h$i" -- env "${env[@]}" "$@"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
    create)
        [ $# -ge 2 ] || die "usage: cluster.sh create NAME HOSTS [--fabric DIR] [--owner PID]"
        check_name "$1"
        create "$@" ;;
    exec)
        [ $# -ge 3 ] || die "usage: cluster.sh exec NAME HOST CMD..."
        check_name "$1"
        i=$(host_index "$1" "$2") || exit 1
        name=$1; shift 2
        enter "$name" "$i" "$@" ;;
    rsh)
        # OpenMPI calls AGENT [options] HOST WORDS...; the words form one shell command
        [ $# -ge 2 ] || die "usage: cluster.sh rsh NAME HOST CMD..."
        check_name "$1"
        name=$1; shift
        while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do shift; done
        i=$(host_index "$name" "$1") || exit 1
        shift
        enter "$name" "$i" /bin/sh -c "$*" ;;
    info)
        [ $# -eq 2 ] || die "usage: cluster.sh info NAME hostfile|agent|hosts|fabric"
        check_name "$1"
        [ -d "$STATE_ROOT/$1" ] || die "no cluster $1"
        case $2 in
            hostfile|agent|hosts) echo "$STATE_ROOT/$1/$2" ;;
            fabric) cat "$STATE_ROOT/$1/fabric" ;;
            *) die "info: unknown key $2" ;;
        esac ;;
    destroy)
        [ $# -eq 1 ] || die "usage: cluster.sh destroy NAME"
        check_name "$1"
        destroy "$1" ;;
    gc) gc ;;
    *) die "usage: cluster.sh create|exec|rsh|info|destroy|gc (see the head of this file)" ;;
esac
