#!/usr/bin/env bash
# golden.sh: write a whole-output golden case for every example spec's
# plan (text and JSON) and sim coll (text), so a change that alters any of
# them shows as a diff. Run it after adding an example, then
#   UPDATE=1 SUPERNODE=build/test/supernode bash tests/cli/suite.sh
# fills the expected files; review them before committing.
set -euo pipefail
cd "$(dirname "$0")/../.."
for spec in examples/*.yaml; do
    n=$(basename "$spec" .yaml)
    for kind in plan plan-json sim-coll; do
        case $kind in
        plan) args="plan $spec" what="the plan's text" ;;
        plan-json) args="plan $spec --format json" what="the plan's JSON" ;;
        sim-coll) args="sim coll $spec" what="the predicted allreduce sweep" ;;
        esac
        covers="plan topo spec render"
        [[ $kind == sim-coll ]] && covers="net workload study topo spec render"
        t=tests/cli/cases/golden-$kind-$n.t
        out=tests/cli/expected/golden-$kind-$n.out
        printf '# %s of %s, whole\nargs: %s\ncovers: %s\nexit: 0\nstdout: %s\n' \
            "$what" "$spec" "$args" "$covers" "$out" >"$t"
        [[ -f "$out" ]] || : >"$out"
    done
done
