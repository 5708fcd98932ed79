// test_bitcoin: Boost.Test entry point.
#define BOOST_TEST_MODULE sha256bench
#include <boost/test/unit_test.hpp>
