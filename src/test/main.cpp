// SPDX-License-Identifier: MIT
// test_bitcoin: Boost.Test entry point. Header-only Boost.Test (as Bitcoin
// Core uses it): no Boost library to link, so cross builds need only headers.
#define BOOST_TEST_MODULE sha256bench
#include <boost/test/included/unit_test.hpp>
