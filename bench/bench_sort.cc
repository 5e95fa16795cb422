// google-benchmark shim: the key sort of `ordo load` (tools/keysort.c)
// against qsort with a memcmp comparator through the record pointers, on the
// same records. Benchmarks are named sort/<impl>/<rows>.
//
// The keys are ordered-format keys of "a bigint, s text, d double precision"
// (every column ASC, i.e. ORDO_ASC_NULLS_LAST) from ordo_batch_encode, each
// prefixed with a 1-byte table tag, in records laid out as in ordo load's
// arena (16-byte header, key, empty value, each record 16-byte aligned).
// Every iteration first copies the unsorted item array into the array that
// is sorted; that copy is excluded from the timing (PauseTiming) in both.
extern "C" {
#include "keysort.h"
#include "ordo.h"
}

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr uint8_t kTag = 7;

struct Records {
    std::vector<uint8_t> arena;        // the records
    std::vector<ordo__keysort_item> items;   // unsorted, input order
    size_t key_bytes = 0;
    std::string error;
};

size_t align16(size_t n) { return (n + 15) & ~static_cast<size_t>(15); }

// Random columns as in bench_encode.cc: int64 over its full range, text of
// 8..16 random letters (about 12), doubles int64/1e6.
Records make(size_t rows)
{
    Records r;
    std::mt19937_64 rng(42);
    std::vector<int64_t> a(rows);
    std::vector<double> d(rows);
    std::vector<int64_t> s_off;
    std::string s_data;
    s_off.reserve(rows + 1);
    s_off.push_back(0);
    for (size_t i = 0; i < rows; i++) {
        a[i] = static_cast<int64_t>(rng());
        size_t n = 8 + rng() % 9;
        for (size_t k = 0; k < n; k++)
            s_data.push_back(static_cast<char>('a' + rng() % 26));
        s_off.push_back(static_cast<int64_t>(s_data.size()));
        d[i] = static_cast<double>(static_cast<int64_t>(rng())) / 1e6;
    }
    ordo_column ca{}, cs{}, cd{};
    ca.type = ORDO_TYPE_INT64, ca.values = a.data(), ca.order = ORDO_ASC_NULLS_LAST;
    cs.type = ORDO_TYPE_STRING, cs.values = s_data.data(), cs.offsets = s_off.data();
    cs.offset_bits = 64, cs.order = ORDO_ASC_NULLS_LAST;
    cd.type = ORDO_TYPE_FLOAT64, cd.values = d.data(), cd.order = ORDO_ASC_NULLS_LAST;
    const ordo_column cols[3] = {ca, cs, cd};

    size_t total = 0;
    ordo_status st = ordo_batch_size(ORDO_FORMAT_ORDERED, cols, 3, rows, &total, nullptr, nullptr);
    std::vector<uint8_t> keys(total ? total : 1);
    std::vector<size_t> offs(rows + 1);
    if (st == ORDO_OK)
        st = ordo_batch_encode(ORDO_FORMAT_ORDERED, cols, 3, rows, keys.data(), keys.size(),
                               offs.data(), nullptr);
    if (st != ORDO_OK) {
        r.error = ordo_status_message(st);
        return r;
    }
    size_t arena = 0;
    for (size_t i = 0; i < rows; i++)
        arena += align16(ORDO__REC_HEADER + 1 + offs[i + 1] - offs[i]);
    r.arena.resize(arena);
    r.items.resize(rows);
    r.key_bytes = total + rows;
    size_t at = 0;
    for (size_t i = 0; i < rows; i++) {
        uint8_t *p = r.arena.data() + at;
        uint32_t kn = static_cast<uint32_t>(1 + offs[i + 1] - offs[i]), vn = 0;
        uint64_t line = i + 1;
        std::memcpy(p, &kn, 4);
        std::memcpy(p + 4, &vn, 4);
        std::memcpy(p + 8, &line, 8);
        p[ORDO__REC_HEADER] = kTag;
        std::memcpy(p + ORDO__REC_HEADER + 1, keys.data() + offs[i], kn - 1);
        r.items[i].prefix = 0;
        r.items[i].rec = p;
        at += align16(ORDO__REC_HEADER + kn);
    }
    return r;
}

// What a naive user writes: memcmp through the record pointers.
int memcmp_order(const void *pa, const void *pb)
{
    const uint8_t *a = static_cast<const ordo__keysort_item *>(pa)->rec;
    const uint8_t *b = static_cast<const ordo__keysort_item *>(pb)->rec;
    uint32_t an = ordo__rec_key_len(a), bn = ordo__rec_key_len(b);
    int c = std::memcmp(ordo__rec_key(a), ordo__rec_key(b), an < bn ? an : bn);
    return c ? c : (an > bn) - (an < bn);
}

// The records are built once per size and shared by both benchmarks.
Records &records(size_t rows)
{
    static size_t have = 0;
    static Records r;
    if (have != rows) {
        r = Records();
        r = make(rows);
        have = rows;
    }
    return r;
}

// Both sorts must give the same order (the keys are distinct with
// overwhelming probability, so stability does not enter).
std::string check(const Records &r)
{
    size_t n = r.items.size();
    std::vector<ordo__keysort_item> x(r.items), y(r.items), tmp(n);
    if (!ordo__keysort(x.data(), tmp.data(), n))
        return "keysort: out of memory";
    std::qsort(y.data(), n, sizeof y[0], memcmp_order);
    for (size_t i = 0; i < n; i++)
        if (x[i].rec != y[i].rec)
            return "keysort and qsort disagree at " + std::to_string(i);
    return "";
}

void sort(benchmark::State &state, bool use_keysort)
{
    size_t rows = static_cast<size_t>(state.range(0));
    Records &r = records(rows);
    if (!r.error.empty()) {
        state.SkipWithError(r.error.c_str());
        return;
    }
    static size_t checked = 0;
    if (checked != rows) {
        std::string e = check(r);
        if (!e.empty()) {
            state.SkipWithError(e.c_str());
            return;
        }
        checked = rows;
    }
    std::vector<ordo__keysort_item> work(rows), tmp(rows);
    for (auto _ : state) {
        state.PauseTiming();
        std::memcpy(work.data(), r.items.data(), rows * sizeof work[0]);
        state.ResumeTiming();
        if (use_keysort) {
            if (!ordo__keysort(work.data(), tmp.data(), rows)) {
                state.SkipWithError("keysort: out of memory");
                return;
            }
        } else {
            std::qsort(work.data(), rows, sizeof work[0], memcmp_order);
        }
        benchmark::DoNotOptimize(work.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * rows));
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * r.key_bytes));
    state.SetLabel("key bytes/row=" +
                   std::to_string(static_cast<double>(r.key_bytes) / static_cast<double>(rows)));
}

int register_all()
{
    for (long rows : {1000000L, 10000000L}) {
        for (bool ks : {true, false}) {
            benchmark::RegisterBenchmark(ks ? "sort/keysort" : "sort/qsort_memcmp",
                                         [ks](benchmark::State &st) { sort(st, ks); })
                ->Arg(rows)
                ->Unit(benchmark::kMillisecond);
        }
    }
    return 0;
}

int registered = register_all();

} // namespace

BENCHMARK_MAIN();
