// Variant (c): tk::approach behind pybind11, built by scikit-build-core.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "flat.hpp"

namespace py = pybind11;

using Masks = py::array_t<uint64_t, py::array::c_style>;
using Ints = py::array_t<int32_t, py::array::c_style>;

namespace {

tk::Env make_board(const Masks& masks, const Ints& ints) {
    if (masks.size() < flat::NMASKS || ints.size() < flat::NINTS)
        throw py::value_error("an array of the wrong length");
    tk::Env env;
    if (!flat::make_env(masks.data(), ints.data(), env)) throw py::value_error("not a board");
    return env;
}

void check_rows(const Ints& rows) {
    if (rows.ndim() != 2 || rows.shape(1) != flat::ROW)
        throw py::value_error("positions are not rows of the benchmark's width");
}

int approach(const tk::Env& env, const Ints& rows, int64_t i) {
    check_rows(rows);
    if (i < 0 || i >= rows.shape(0)) throw py::index_error("no such position");
    return flat::approach_row(env, rows.data() + i * flat::ROW);
}

void approach_all(const tk::Env& env, const Ints& rows, Ints& out) {
    check_rows(rows);
    py::ssize_t n = rows.shape(0);
    if (out.size() < n) throw py::value_error("out is too short");
    int32_t* dist = out.mutable_data();
    for (py::ssize_t k = 0; k < n; ++k)
        dist[k] = flat::approach_row(env, rows.data() + k * flat::ROW);
}

}  // namespace

PYBIND11_MODULE(kc_pybind11, m) {
    py::class_<tk::Env>(m, "Board");
    // noconvert: an array of another type is refused, never copied behind the caller's back
    m.def("make_board", &make_board, py::arg("masks").noconvert(), py::arg("ints").noconvert(),
          "the board of masks and ints, made once");
    m.def("approach", &approach, py::arg("board"), py::arg("positions").noconvert(), py::arg("i"),
          "the distance of row i");
    m.def("approach_all", &approach_all, py::arg("board"), py::arg("positions").noconvert(),
          py::arg("out").noconvert(), "every row's distance into out");
}
