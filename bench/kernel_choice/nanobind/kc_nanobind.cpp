// Variant (b): tk::approach behind nanobind, built by scikit-build-core.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include "flat.hpp"

namespace nb = nanobind;

using Masks = nb::ndarray<const uint64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Ints = nb::ndarray<const int32_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Rows = nb::ndarray<const int32_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Out = nb::ndarray<int32_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

namespace {

tk::Env make_board(Masks masks, Ints ints) {
    if (masks.shape(0) < (size_t)flat::NMASKS || ints.shape(0) < (size_t)flat::NINTS)
        throw nb::value_error("an array of the wrong length");
    tk::Env env;
    if (!flat::make_env(masks.data(), ints.data(), env)) throw nb::value_error("not a board");
    return env;
}

void check_rows(const Rows& rows) {
    if (rows.shape(1) != (size_t)flat::ROW)
        throw nb::value_error("positions are not rows of the benchmark's width");
}

int approach(const tk::Env& env, Rows rows, int64_t i) {
    check_rows(rows);
    if (i < 0 || (size_t)i >= rows.shape(0)) throw nb::index_error("no such position");
    return flat::approach_row(env, rows.data() + i * flat::ROW);
}

void approach_all(const tk::Env& env, Rows rows, Out out) {
    check_rows(rows);
    size_t n = rows.shape(0);
    if (out.shape(0) < n) throw nb::value_error("out is too short");
    int32_t* dist = out.data();
    for (size_t k = 0; k < n; ++k) dist[k] = flat::approach_row(env, rows.data() + k * flat::ROW);
}

}  // namespace

NB_MODULE(kc_nanobind, m) {
    nb::class_<tk::Env>(m, "Board");
    m.def("make_board", &make_board, "the board of masks and ints, made once");
    m.def("approach", &approach, "the distance of row i");
    m.def("approach_all", &approach_all, "every row's distance into out");
}
