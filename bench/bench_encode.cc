// google-benchmark shim over the C batch API. Benchmarks are named
// encode/<schema>/<impl>/<rows> (LexKey; encode_ordered/... and
// encode_packed/... the other formats), and memcpy/<schema>/<rows>
// (memcpy_ordered/..., memcpy_packed/...) copies the same number of output
// bytes, so ratios come from one run; csv_index/<impl>/<bytes> finds the CSV
// structure of that many bytes, against memcpy/csv/<bytes>. Every encode
// benchmark first compares its keys with the scalar reference's
// (tools/bench_identity.c) and fails, naming the first differing row and
// column, on a mismatch; the program then exits 1.
extern "C" {
#include "bench_identity.h"
#include "ordo.h"
}

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

struct Batch {
    std::vector<int64_t> a;
    std::vector<double> b;
    std::vector<int32_t> c;
    std::vector<int64_t> s_off;
    std::string s_data;
    std::vector<ordo_column> cols;
    size_t total = 0, stride = 0; // stride: fixed-width keys, which need no offsets
};

// "fixed": a bigint, b double precision, c integer.
// "mixed": a bigint, s text (8..16 letters, about 12), b double precision.
Batch make(const std::string &schema, size_t rows, ordo_format fmt)
{
    Batch t;
    std::mt19937_64 rng(42);
    t.a.resize(rows);
    t.b.resize(rows);
    t.c.resize(rows);
    for (size_t i = 0; i < rows; i++) {
        t.a[i] = static_cast<int64_t>(rng());
        t.b[i] = static_cast<double>(static_cast<int64_t>(rng())) / 1e6;
        t.c[i] = static_cast<int32_t>(rng());
    }
    ordo_column a{}, b{}, c{};
    a.type = ORDO_TYPE_INT64, a.values = t.a.data();
    b.type = ORDO_TYPE_FLOAT64, b.values = t.b.data();
    c.type = ORDO_TYPE_INT32, c.values = t.c.data();
    if (schema == "fixed") {
        t.cols = {a, b, c};
    } else {
        t.s_off.push_back(0);
        for (size_t i = 0; i < rows; i++) {
            size_t n = 8 + rng() % 9;
            for (size_t k = 0; k < n; k++)
                t.s_data.push_back(static_cast<char>('a' + rng() % 26));
            t.s_off.push_back(static_cast<int64_t>(t.s_data.size()));
        }
        ordo_column s{};
        s.type = ORDO_TYPE_STRING, s.values = t.s_data.data(), s.offsets = t.s_off.data();
        s.offset_bits = 64;
        t.cols = {a, s, b};
    }
    ordo_batch_size(fmt, t.cols.data(), t.cols.size(), rows, &t.total, &t.stride, nullptr);
    return t;
}

bool identity_failed = false;

// The keys impl wrote (out, o) against the scalar reference's: an error
// message naming the first difference, or "" when they are identical.
std::string identity(const Batch &t, ordo_format fmt, const std::string &impl, size_t rows,
                     const uint8_t *out, const size_t *o)
{
    if (impl == "scalar")
        return "";
    bench_layout l = {fmt, t.cols.data(), t.cols.size(), rows, rows, t.stride, nullptr};
    bench_mismatch m{};
    int same = 0;
    ordo_status s = bench_check_identity(ordo_batch_encode_impl, impl.c_str(), &l, out, o, &same, &m);
    if (s != ORDO_OK)
        return std::string("the scalar reference: ") + ordo_status_message(s);
    if (same)
        return "";
    return "keys differ from the scalar reference's at row " + std::to_string(m.row) + ", column " +
           std::to_string(m.column);
}

void encode(benchmark::State &state, std::string schema, std::string impl, ordo_format fmt)
{
    size_t rows = static_cast<size_t>(state.range(0));
    Batch t = make(schema, rows, fmt);
    std::vector<uint8_t> out(t.total);
    std::vector<size_t> offs(rows + 1);
    size_t *o = t.stride ? nullptr : offs.data(); // key i at i * stride
    ordo_status s = ordo_batch_encode_impl(impl.c_str(), fmt, t.cols.data(), t.cols.size(), rows,
                                           out.data(), out.size(), o, nullptr);
    if (s != ORDO_OK) {
        state.SkipWithError(ordo_status_message(s));
        return;
    }
    std::string wrong = identity(t, fmt, impl, rows, out.data(), o);
    if (!wrong.empty()) {
        identity_failed = true;
        state.SkipWithError(wrong.c_str());
        return;
    }
    for (auto _ : state) {
        ordo_batch_encode_impl(impl.c_str(), fmt, t.cols.data(), t.cols.size(), rows, out.data(),
                               out.size(), o, nullptr);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * t.total));
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * rows));
    state.SetLabel("impl=" + impl);
}

void copy(benchmark::State &state, std::string schema, ordo_format fmt)
{
    size_t rows = static_cast<size_t>(state.range(0));
    Batch t = make(schema, rows, fmt);
    std::vector<uint8_t> src(t.total, 1), dst(t.total, 0);
    for (auto _ : state) {
        std::memcpy(dst.data(), src.data(), t.total);
        benchmark::DoNotOptimize(dst.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * t.total));
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * rows));
}

// CSV as the tool reads it: "bigint,double,integer" rows.
std::string make_csv(size_t bytes)
{
    std::mt19937_64 rng(7);
    std::string s;
    char row[96];
    while (s.size() < bytes) {
        int n = std::snprintf(row, sizeof row, "%lld,%.*g,%d\n", static_cast<long long>(rng()),
                              static_cast<int>(1 + rng() % 15),
                              static_cast<double>(static_cast<int64_t>(rng())) / 1e9,
                              static_cast<int>(static_cast<int32_t>(rng())));
        s.append(row, static_cast<size_t>(n));
    }
    s.resize(bytes);
    return s;
}

void csv_index(benchmark::State &state, std::string impl)
{
    size_t bytes = static_cast<size_t>(state.range(0));
    std::string csv = make_csv(bytes);
    std::vector<uint32_t> idx(ORDO_CSV_INDEX_ROOM(bytes));
    size_t count = 0;
    int q = 0;
    auto run = [&] {
        q = 0;
        return ordo_csv_index_impl(impl.c_str(), reinterpret_cast<const uint8_t *>(csv.data()),
                                   bytes, idx.data(), idx.size(), &count, &q);
    };
    if (ordo_status s = run(); s != ORDO_OK) {
        state.SkipWithError(ordo_status_message(s));
        return;
    }
    for (auto _ : state) {
        run();
        benchmark::DoNotOptimize(idx.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
    state.SetLabel("impl=" + impl + " entries=" + std::to_string(count));
}

void csv_copy(benchmark::State &state)
{
    size_t bytes = static_cast<size_t>(state.range(0));
    std::vector<uint8_t> src(bytes, 1), dst(bytes, 0);
    for (auto _ : state) {
        std::memcpy(dst.data(), src.data(), bytes);
        benchmark::DoNotOptimize(dst.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}

// The row API, one key at a time (issue #18 item 6): ordo_lexkey_init,
// three parts, ordo_lexkey_finish into a stack buffer, per key. "foo_int_bool"
// is (string "foo", int, bool), "tenant_user_int" ("tenant", "user", int);
// the int changes every key, so nothing is hoisted out of the loop. The key
// bytes are checked once against a fixed expectation before timing.
// Variants (same key, same bytes): "" through the header's inline fast paths
// as callers write it; "_opaque" the same with the buffer and its capacity
// hidden from the compiler each key (a buffer from elsewhere: the room checks
// run); "_call" the library's out-of-line functions (the names in
// parentheses), i.e. the row API before the inline paths.
enum row_mode { ROW_INLINE, ROW_OPAQUE, ROW_CALL };

template <row_mode M> ordo_status lexkey_build(uint8_t *buf, size_t cap, int shape, int64_t i, size_t *len)
{
    ordo_lexkey b;
    if (M == ROW_OPAQUE) {
        benchmark::DoNotOptimize(buf);
        benchmark::DoNotOptimize(cap);
    }
    if (M == ROW_CALL) {
        (ordo_lexkey_init)(&b, buf, cap, 0);
        if (shape == 0) {
            (ordo_lexkey_string)(&b, "foo", 3);
            (ordo_lexkey_int)(&b, i);
            (ordo_lexkey_bool)(&b, (i & 1) != 0);
        } else {
            (ordo_lexkey_string)(&b, "tenant", 6);
            (ordo_lexkey_string)(&b, "user", 4);
            (ordo_lexkey_int)(&b, i);
        }
        return (ordo_lexkey_finish)(&b, len);
    }
    ordo_lexkey_init(&b, buf, cap, 0);
    if (shape == 0) {
        ordo_lexkey_string(&b, "foo", 3);
        ordo_lexkey_int(&b, i);
        ordo_lexkey_bool(&b, (i & 1) != 0);
    } else {
        ordo_lexkey_string(&b, "tenant", 6);
        ordo_lexkey_string(&b, "user", 4);
        ordo_lexkey_int(&b, i);
    }
    return ordo_lexkey_finish(&b, len);
}

template <row_mode M> void lexkey_row(benchmark::State &state, int shape)
{
    uint8_t buf[64];
    size_t len = 0;
    // foo 00 <int 456: 80 00 00 00 00 00 01 c8> 00 01 (bool true? 456 is even: 00)
    static const uint8_t want0[] = {'f', 'o', 'o', 0, 0x80, 0, 0, 0, 0, 0, 0x01, 0xc8, 0, 0};
    static const uint8_t want1[] = {'t', 'e', 'n', 'a', 'n', 't', 0, 'u', 's', 'e', 'r', 0,
                                    0x80, 0, 0, 0, 0, 0, 0x01, 0xc8};
    const uint8_t *want = shape == 0 ? want0 : want1;
    size_t want_len = shape == 0 ? sizeof want0 : sizeof want1;
    if (lexkey_build<M>(buf, sizeof buf, shape, 456, &len) != ORDO_OK || len != want_len ||
        std::memcmp(buf, want, len) != 0) {
        state.SkipWithError("unexpected key bytes");
        return;
    }
    int64_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(lexkey_build<M>(buf, sizeof buf, shape, i++, &len));
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

// The ordered row builder the same way: (bigint ASC, integer DESC, boolean
// ASC NULLS FIRST) through ordo_key_init/_int64/_int32/_bool/_finish.
template <row_mode M> ordo_status key_build(uint8_t *buf, size_t cap, int64_t i, size_t *len)
{
    ordo_key k;
    if (M == ROW_OPAQUE) {
        benchmark::DoNotOptimize(buf);
        benchmark::DoNotOptimize(cap);
    }
    if (M == ROW_CALL) {
        (ordo_key_init)(&k, buf, cap, 0);
        (ordo_key_int64)(&k, ORDO_ASC_NULLS_LAST, i);
        (ordo_key_int32)(&k, ORDO_DESC_NULLS_FIRST, static_cast<int32_t>(i));
        (ordo_key_bool)(&k, ORDO_ASC_NULLS_FIRST, (i & 1) != 0);
        return (ordo_key_finish)(&k, len);
    }
    ordo_key_init(&k, buf, cap, 0);
    ordo_key_int64(&k, ORDO_ASC_NULLS_LAST, i);
    ordo_key_int32(&k, ORDO_DESC_NULLS_FIRST, static_cast<int32_t>(i));
    ordo_key_bool(&k, ORDO_ASC_NULLS_FIRST, (i & 1) != 0);
    return ordo_key_finish(&k, len);
}

template <row_mode M> void key_row(benchmark::State &state)
{
    uint8_t buf[64];
    size_t len = 0;
    // 00 <456 ^ sign: 80 .. 01 c8> 01 <~(456 ^ sign32): 7f ff fe 37> 01 00
    static const uint8_t want[] = {0, 0x80, 0, 0, 0, 0, 0, 0x01, 0xc8, 1, 0x7f, 0xff, 0xfe, 0x37, 1, 0};
    if (key_build<M>(buf, sizeof buf, 456, &len) != ORDO_OK || len != sizeof want ||
        std::memcmp(buf, want, len) != 0) {
        state.SkipWithError("unexpected key bytes");
        return;
    }
    int64_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(key_build<M>(buf, sizeof buf, i++, &len));
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

int register_lexkey_row()
{
    benchmark::RegisterBenchmark("lexkey_row/foo_int_bool", [](benchmark::State &st) { lexkey_row<ROW_INLINE>(st, 0); });
    benchmark::RegisterBenchmark("lexkey_row/tenant_user_int", [](benchmark::State &st) { lexkey_row<ROW_INLINE>(st, 1); });
    benchmark::RegisterBenchmark("lexkey_row/foo_int_bool_opaque", [](benchmark::State &st) { lexkey_row<ROW_OPAQUE>(st, 0); });
    benchmark::RegisterBenchmark("lexkey_row/tenant_user_int_opaque", [](benchmark::State &st) { lexkey_row<ROW_OPAQUE>(st, 1); });
    benchmark::RegisterBenchmark("lexkey_row/foo_int_bool_call", [](benchmark::State &st) { lexkey_row<ROW_CALL>(st, 0); });
    benchmark::RegisterBenchmark("lexkey_row/tenant_user_int_call", [](benchmark::State &st) { lexkey_row<ROW_CALL>(st, 1); });
    benchmark::RegisterBenchmark("key_row/bigint_int_bool", key_row<ROW_INLINE>);
    benchmark::RegisterBenchmark("key_row/bigint_int_bool_opaque", key_row<ROW_OPAQUE>);
    benchmark::RegisterBenchmark("key_row/bigint_int_bool_call", key_row<ROW_CALL>);
    return 0;
}

int registered_lexkey_row = register_lexkey_row();

// The library's implementations that this CPU runs (ordo_impl_at).
std::vector<const char *> runnable_impls()
{
    std::vector<const char *> names;
    const char *name;
    ordo_status s;
    for (size_t i = 0; (name = ordo_impl_at(i, &s)) != nullptr; i++)
        if (s == ORDO_OK)
            names.push_back(name);
    return names;
}

int register_all()
{
    for (const char *impl : runnable_impls())
        benchmark::RegisterBenchmark((std::string("csv_index/") + impl).c_str(),
                                     [impl](benchmark::State &st) { csv_index(st, impl); })
            ->Arg(16 << 10)
            ->Arg(64 << 20)
            ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("memcpy/csv", csv_copy)
        ->Arg(16 << 10)
        ->Arg(64 << 20)
        ->Unit(benchmark::kMicrosecond);
    const struct {
        const char *suffix; // "" for LexKey, whose names stay as they were
        ordo_format fmt;
    } formats[] = {{"", ORDO_FORMAT_LEXKEY},
                   {"_ordered", ORDO_FORMAT_ORDERED},
                   {"_packed", ORDO_FORMAT_PACKED}};
    for (const auto &f : formats) {
        ordo_format fmt = f.fmt;
        for (const char *schema : {"fixed", "mixed"}) {
            if (fmt == ORDO_FORMAT_PACKED && std::string(schema) == "mixed")
                continue; // packed keys are fixed-width only
            for (const char *impl : runnable_impls()) {
                benchmark::RegisterBenchmark(
                    (std::string("encode") + f.suffix + "/" + schema + "/" + impl).c_str(),
                    [schema, impl, fmt](benchmark::State &st) { encode(st, schema, impl, fmt); })
                    ->Arg(4096)
                    ->Arg(10000000)
                    ->Unit(benchmark::kMicrosecond);
            }
            benchmark::RegisterBenchmark(
                (std::string("memcpy") + f.suffix + "/" + schema).c_str(),
                [schema, fmt](benchmark::State &st) { copy(st, schema, fmt); })
                ->Arg(4096)
                ->Arg(10000000)
                ->Unit(benchmark::kMicrosecond);
        }
    }
    return 0;
}

int registered = register_all();

} // namespace

// BENCHMARK_MAIN, and exit status 1 when an implementation's keys were not
// the reference's.
int main(int argc, char **argv)
{
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    if (identity_failed)
        std::fprintf(stderr, "ordo_bench: an implementation's keys differ from the reference's\n");
    return identity_failed ? 1 : 0;
}
