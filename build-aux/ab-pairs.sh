# SPDX-License-Identifier: MIT
# Sourced by the A/B drivers: the one ABBA order. contrib/bench-compare.sh runs
# its pairs through ab_pairs; contrib/core-patch.sh's --ab, which runs each
# benchmark in a process of its own, orders the two sides of every benchmark
# of pair n by ab_order. Pair n runs BASE then HEAD
# when n is odd and HEAD then BASE when it is even, so a drift of the machine
# over a pair (a clock ramping, a neighbour starting) weighs on both sides
# alike over two pairs.
#
# ab_order <n>: the sides of pair n in the order they run, "base head" or "head base".
ab_order() {
  if [ $(( $1 % 2 )) -eq 1 ]; then echo "base head"; else echo "head base"; fi
}

# ab_pairs <first> <last> <run> [<after>]: for each pair n from first to last,
# `<run> n <side>` for each side in ab_order's order, then `<after> n` if given
# (a driver's progress line, or what it does with a finished pair). Stops at
# the first command that fails and returns its status. sh has no locals: the
# loop's names start with _ab_.
ab_pairs() {
  _ab_n=$1
  while [ "$_ab_n" -le "$2" ]; do
    for _ab_side in $(ab_order "$_ab_n"); do
      "$3" "$_ab_n" "$_ab_side" || return
    done
    if [ -n "${4:-}" ]; then "$4" "$_ab_n" || return; fi
    _ab_n=$((_ab_n + 1))
  done
}
