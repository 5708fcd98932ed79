// SPDX-License-Identifier: MIT
// Result files appear whole or not at all: each is written to a temporary file
// in the target's directory, checked through fsync and close, and renamed into
// place. The temporary is created before any benchmark runs, so an unwritable
// path costs nothing but an error message. A run killed by SIGINT, SIGTERM,
// SIGHUP or SIGPIPE removes its temporaries before it dies.
#ifndef SHA256BENCH_BENCH_OUTPUT_H
#define SHA256BENCH_BENCH_OUTPUT_H

#include <string>

namespace benchmark {

class OutputFile
{
public:
    OutputFile() = default;
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;
    ~OutputFile(); //!< removes the temporary unless Commit() succeeded

    //! Reserves a temporary file beside `path` (`option` names it in errors,
    //! e.g. "-output-csv"). Returns "" or the error.
    std::string Open(const std::string& option, const std::string& path);
    bool IsOpen() const { return fd_ >= 0 || !tmp_.empty(); }

    //! Writes `text` to the temporary and closes it. Returns "" or the error.
    std::string Write(const std::string& text);
    //! Renames the written temporary into place. Returns "" or the error.
    std::string Commit();

    //! The file that will be written (symlinks resolved), for the same-file check.
    const std::string& Target() const { return target_; }

private:
    std::string Fail(const std::string& what, int err);
    void Discard();

    std::string option_;
    std::string path_;   //!< as given, for messages
    std::string target_; //!< what the rename replaces
    std::string tmp_;
    int fd_{-1};
    int slot_{-1}; //!< where the signal handler finds tmp_ (SIGINT, SIGTERM, SIGHUP, SIGPIPE remove it)
};

//! True if two output paths name the same file (same resolved path, or the same inode).
bool SameFile(const std::string& a, const std::string& b);

} // namespace benchmark

#endif
