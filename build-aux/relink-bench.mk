# SPDX-License-Identifier: MIT
# bench_bitcoin linked again from the objects and libraries of a finished build,
# to another file and with more link flags, leaving the build as it was: read
# after the build's own src/Makefile, so the link is automake's own rule's, with
# its variables (contrib/bench-compare.sh --shuffle-code links each pair's
# binaries so, in that pair's function order).
#
#   make -s -C BUILD/src -f Makefile -f relink-bench.mk -o Makefile RELINK_OUT=FILE RELINK_LDFLAGS='...' relink-bench
#
# -o Makefile: a cached build was configured in another directory (its .partial,
# build-aux/build-cache.sh), so the Makefile's rule to remake itself names
# sources that are gone; the Makefile is as it was built, and is not remade.
.PHONY: relink-bench
relink-bench:
	@test -n "$(RELINK_OUT)" || { echo 'relink-bench.mk: RELINK_OUT is not set' >&2; exit 2; }
	$(LIBTOOL) --silent --tag=CXX $(AM_LIBTOOLFLAGS) $(LIBTOOLFLAGS) --mode=link $(CXXLD) $(AM_CXXFLAGS) \
	  $(CXXFLAGS) $(AM_LDFLAGS) $(LDFLAGS) $(RELINK_LDFLAGS) -o $(RELINK_OUT) \
	  $(bench_bench_bitcoin_OBJECTS) $(bench_bench_bitcoin_LDADD) $(LIBS)
