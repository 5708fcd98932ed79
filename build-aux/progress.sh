# SPDX-License-Identifier: MIT
# Sourced by the scripts that run long commands (contrib/bench.sh,
# contrib/bench-compare.sh, contrib/install-deps.sh, ci/test-all.sh), so a
# newcomer sees progress while apt, configure or make write to a log.
#
# progress_run <label> <log> <command...>: the command's output appended to
# <log>; every PROGRESS_EVERY seconds (default 30) one line
# "<PROGRESS_PREFIX>... <label>: still running (N s)". Returns its exit code.
progress_run() {
  _pr_label=$1 _pr_log=$2
  shift 2
  _pr_start=$(date +%s) _pr_next=${PROGRESS_EVERY:-30}
  "$@" >> "$_pr_log" 2>&1 &
  _pr_pid=$!
  while kill -0 "$_pr_pid" 2> /dev/null; do
    sleep 1
    if [ $(( $(date +%s) - _pr_start )) -ge "$_pr_next" ]; then
      echo "${PROGRESS_PREFIX:-}... $_pr_label: still running (${_pr_next} s)"
      _pr_next=$((_pr_next + ${PROGRESS_EVERY:-30}))
    fi
  done
  wait "$_pr_pid"
}
