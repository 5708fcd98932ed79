// SPDX-License-Identifier: MIT
// The NIST vector reader accepts only complete, fully understood files with the
// published record counts; everything else is an error naming file and line.
#include <test/util/nist.h>

#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace {

const char* HEADER = "#  CAVS 11.0\n#  \"SHA-256 ShortMsg\" information\n\n[L = 32]\n\n";

// Record i of a synthetic message file: Len = 8*i bits of 0xab, a dummy MD (the reader does not hash).
std::string Record(size_t i)
{
    std::string msg = i ? "" : "00";
    for (size_t j = 0; j < i; ++j) msg += "ab";
    return "Len = " + std::to_string(8 * i) + "\nMsg = " + msg + "\nMD = " + std::string(64, '1') + "\n\n";
}

std::string MsgText(size_t records)
{
    std::string t = HEADER;
    for (size_t i = 0; i < records; ++i) t += Record(i);
    return t;
}

std::string FirstLines(const std::string& text, size_t n)
{
    size_t pos = 0;
    for (size_t i = 0; i < n && pos != std::string::npos; ++i) {
        pos = text.find('\n', pos);
        if (pos != std::string::npos) ++pos;
    }
    return pos == std::string::npos ? text : text.substr(0, pos);
}

// The reader's error for `text`, or "" if it accepted it.
std::string MsgError(const std::string& text, size_t expected = nist::SHORT_MSG_RECORDS)
{
    std::istringstream in(text);
    try {
        nist::ParseMsgText(in, "t.rsp", expected);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

std::string MonteText(size_t checkpoints)
{
    std::string t = std::string(HEADER) + "Seed = " + std::string(64, 'c') + "\n\n";
    for (size_t i = 0; i < checkpoints; ++i) t += "COUNT = " + std::to_string(i) + "\nMD = " + std::string(64, 'd') + "\n\n";
    return t;
}

std::string MonteError(const std::string& text)
{
    std::istringstream in(text);
    try {
        nist::ParseMonteText(in, "m.rsp");
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

bool Contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

} // namespace

BOOST_AUTO_TEST_SUITE(nist_tests)

BOOST_AUTO_TEST_CASE(complete_file_is_accepted)
{
    std::istringstream in(MsgText(nist::SHORT_MSG_RECORDS));
    const auto v = nist::ParseMsgText(in, "t.rsp", nist::SHORT_MSG_RECORDS);
    BOOST_REQUIRE_EQUAL(v.size(), nist::SHORT_MSG_RECORDS);
    BOOST_CHECK_EQUAL(v[0].msg.size(), 0u);
    BOOST_CHECK_EQUAL(v[3].msg.size(), 3u);
    BOOST_CHECK_EQUAL(v[3].line, 6 + 4 * 3 + 2); // header is 5 lines; record i starts at 6 + 4i
    BOOST_CHECK_EQUAL(MonteError(MonteText(nist::MONTE_CHECKPOINTS)), "");
}

BOOST_AUTO_TEST_CASE(truncated_after_19_lines_is_an_error)
{
    // 19 lines = header + 3 whole records + the next Len and Msg: the old reader said "3 vectors, no errors".
    const std::string e = MsgError(FirstLines(MsgText(nist::SHORT_MSG_RECORDS), 19));
    BOOST_CHECK_MESSAGE(Contains(e, "t.rsp:19:") && Contains(e, "begun at line 18 (no MD)"), e);
    // Cut on a record boundary: the count gives it away.
    const std::string e2 = MsgError(FirstLines(MsgText(nist::SHORT_MSG_RECORDS), 17));
    BOOST_CHECK_MESSAGE(Contains(e2, "t.rsp:17:") && Contains(e2, "after 3 records") && Contains(e2, "65"), e2);
}

BOOST_AUTO_TEST_CASE(last_md_line_cut_is_an_error)
{
    std::string t = MsgText(nist::SHORT_MSG_RECORDS);
    const size_t md = t.rfind("MD = ");
    const std::string e = MsgError(t.substr(0, md));
    BOOST_CHECK_MESSAGE(Contains(e, "no MD") && Contains(e, "t.rsp:"), e);
    // Half an MD line is an error on that line.
    const std::string e2 = MsgError(t.substr(0, md + 20));
    BOOST_CHECK_MESSAGE(Contains(e2, "MD is not 32 bytes") || Contains(e2, "odd-length"), e2);
}

BOOST_AUTO_TEST_CASE(len_must_be_a_plain_decimal_in_range)
{
    const std::string good = MsgText(nist::SHORT_MSG_RECORDS);
    auto with_len1 = [&](const std::string& len) {
        std::string t = good;
        const size_t at = t.find("Len = 8\n");
        return t.replace(at, 8, "Len = " + len + "\n");
    };
    for (const char* bad : {"8x", "-8", "+8", " 8 8", "0x8", "99999999999999999999", "18446744073709551624"}) {
        const std::string e = MsgError(with_len1(bad));
        BOOST_CHECK_MESSAGE(Contains(e, "t.rsp:10:") && Contains(e, "Len"), "Len = '" << bad << "': " << e);
    }
    // In range as a number but not matching the message.
    const std::string e = MsgError(with_len1("16"));
    BOOST_CHECK_MESSAGE(Contains(e, "t.rsp:11:") && Contains(e, "Len = 16"), e);
    const std::string huge = MsgError(with_len1("4294967304"));
    BOOST_CHECK_MESSAGE(Contains(huge, "t.rsp:10:") && Contains(huge, "out of range"), huge);
}

BOOST_AUTO_TEST_CASE(unknown_or_misplaced_lines_are_errors)
{
    const std::string good = MsgText(nist::SHORT_MSG_RECORDS);
    std::string t = good;
    BOOST_CHECK(Contains(MsgError(t.insert(t.find("Len = 8\n"), "Foo = 1\n")), "unexpected field 'Foo'"));
    t = good;
    BOOST_CHECK(Contains(MsgError(t.insert(t.find("Len = 8\n"), "garbage\n")), "expected 'key = value'"));
    t = good;
    BOOST_CHECK(Contains(MsgError(t.replace(t.find("[L = 32]"), 8, "[L = 64]")), "expected 32"));
    BOOST_CHECK(Contains(MsgError(""), "after 0 records"));
}

BOOST_AUTO_TEST_CASE(one_vector_file_is_an_error_not_a_crash)
{
    // A real file on disk, read through ReadMsgFile under the published name.
    char dir[] = "/tmp/nist_tests.XXXXXX";
    BOOST_REQUIRE(mkdtemp(dir) != nullptr);
    const std::string path = std::string(dir) + "/SHA256ShortMsg.rsp";
    std::ofstream(path) << MsgText(1);
    std::string e;
    try {
        nist::ReadMsgFile(path);
    } catch (const std::runtime_error& ex) {
        e = ex.what();
    }
    BOOST_CHECK_MESSAGE(Contains(e, path + ":") && Contains(e, "after 1 records"), e);
    std::remove(path.c_str());
    rmdir(dir);
}

BOOST_AUTO_TEST_CASE(monte_must_be_complete)
{
    const std::string good = MonteText(nist::MONTE_CHECKPOINTS);
    BOOST_CHECK(Contains(MonteError(MonteText(99)), "after 99 checkpoints"));
    BOOST_CHECK(Contains(MonteError(good.substr(0, good.rfind("MD = "))), "COUNT with no MD"));
    std::string t = good;
    BOOST_CHECK(Contains(MonteError(t.replace(t.find("COUNT = 5\n"), 10, "COUNT = 5x\n")), "plain decimal"));
    t = good;
    BOOST_CHECK(Contains(MonteError(t.replace(t.find("COUNT = 5\n"), 10, "COUNT = 6\n")), "out of sequence"));
}

BOOST_AUTO_TEST_SUITE_END()
