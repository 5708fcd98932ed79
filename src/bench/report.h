// SPDX-License-Identifier: MIT
// The report step: one writer per format (markdown tables on stdout, CSV,
// JSON). Writers only format; every figure is computed in bench.cpp.
#ifndef SHA256BENCH_BENCH_REPORT_H
#define SHA256BENCH_BENCH_REPORT_H

#include <bench/bench.h>
#include <bench/machine.h>

#include <cstdio>
#include <string>
#include <vector>

namespace benchmark {

//! Everything a report says about the run besides its results.
struct RunInfo {
    bool sanity_check{false};
    std::string date; //!< UTC, ISO 8601
    std::string filter;
    uint64_t min_time_ms{0};
    int rounds{0};
    int threads{1};       //!< -threads
    int place{-1};        //!< -place (-1: not given)
    std::string cpus;     //!< the CPUs the process may run on ("0-1")
    Machine machine;
    Build build;
    std::vector<Note> notes;
    std::vector<ImplRow> impls;
};

//! Markdown: the lines above the tables, then one table at a time as it is measured.
void WriteMarkdownHeader(std::FILE* f, const RunInfo& info);
//! `emulated` (Machine::emulated) marks the title, so a pasted table says it too.
void WriteMarkdownTable(std::FILE* f, const TableResult& t, const std::string& emulated = "");

//! CSV: a header row, then one row per result.
std::string CsvText(const std::vector<TableResult>& tables);

//! JSON: schema "sha256bench-results", version 1 (doc/benchmarking.md).
std::string JsonText(const RunInfo& info, const std::vector<TableResult>& tables);

//! -list-impls: one tab-separated line per registry row.
std::string ImplListText(const std::vector<ImplRow>& impls);

} // namespace benchmark

#endif
