#!/bin/sh
# SPDX-License-Identifier: MIT
# make check driver: runs test_bitcoin with messages on, so the log names how
# many vectors ran on each transform and which transforms could not run here.
: "${TEST_BITCOIN:?TEST_BITCOIN must point at test_bitcoin}"
exec $TEST_BITCOIN_WRAPPER "$TEST_BITCOIN" --log_level=message --report_level=short --color_output=no "$@"
