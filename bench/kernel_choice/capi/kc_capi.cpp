// Variant (a): tk::approach behind the raw CPython API, built by setuptools.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <memory>

#include "flat.hpp"

namespace {

const char* BOARD = "kc_capi.Board";

void free_board(PyObject* capsule) {
    delete static_cast<tk::Env*>(PyCapsule_GetPointer(capsule, BOARD));
}

// A contiguous buffer of ``itemsize``-byte items, at least ``count`` of them.
bool get_buffer(PyObject* obj, Py_buffer& view, Py_ssize_t itemsize, Py_ssize_t count,
                bool writable) {
    int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, &view, flags) < 0) return false;
    if (view.itemsize != itemsize || view.len < itemsize * count) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "an array of the wrong item size or length");
        return false;
    }
    return true;
}

PyObject* make_board(PyObject*, PyObject* args) {
    PyObject *masks_obj, *ints_obj;
    if (!PyArg_ParseTuple(args, "OO", &masks_obj, &ints_obj)) return nullptr;
    Py_buffer masks, ints;
    if (!get_buffer(masks_obj, masks, 8, flat::NMASKS, false)) return nullptr;
    if (!get_buffer(ints_obj, ints, 4, flat::NINTS, false)) {
        PyBuffer_Release(&masks);
        return nullptr;
    }
    auto env = std::make_unique<tk::Env>();
    bool ok = flat::make_env((const uint64_t*)masks.buf, (const int32_t*)ints.buf, *env);
    PyBuffer_Release(&masks);
    PyBuffer_Release(&ints);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "not a board");
        return nullptr;
    }
    PyObject* capsule = PyCapsule_New(env.get(), BOARD, free_board);
    if (capsule) env.release();
    return capsule;
}

// The board of a capsule and the rows of a (n, ROW) int32 buffer.
bool board_and_rows(PyObject* capsule, PyObject* rows_obj, const tk::Env*& env, Py_buffer& rows,
                    Py_ssize_t& n) {
    env = static_cast<const tk::Env*>(PyCapsule_GetPointer(capsule, BOARD));
    if (!env) return false;
    if (!get_buffer(rows_obj, rows, 4, 0, false)) return false;
    n = rows.len / (4 * flat::ROW);
    if (rows.ndim != 2 || rows.shape[1] != flat::ROW) {
        PyBuffer_Release(&rows);
        PyErr_SetString(PyExc_ValueError, "positions are not rows of the benchmark's width");
        return false;
    }
    return true;
}

PyObject* approach(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "approach(board, positions, i)");
        return nullptr;
    }
    Py_ssize_t i = PyLong_AsSsize_t(args[2]);
    if (i == -1 && PyErr_Occurred()) return nullptr;
    const tk::Env* env;
    Py_buffer rows;
    Py_ssize_t n;
    if (!board_and_rows(args[0], args[1], env, rows, n)) return nullptr;
    if (i < 0 || i >= n) {
        PyBuffer_Release(&rows);
        PyErr_SetString(PyExc_IndexError, "no such position");
        return nullptr;
    }
    int dist = flat::approach_row(*env, (const int32_t*)rows.buf + i * flat::ROW);
    PyBuffer_Release(&rows);
    return PyLong_FromLong(dist);
}

PyObject* approach_all(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "approach_all(board, positions, out)");
        return nullptr;
    }
    const tk::Env* env;
    Py_buffer rows, out;
    Py_ssize_t n;
    if (!board_and_rows(args[0], args[1], env, rows, n)) return nullptr;
    if (!get_buffer(args[2], out, 4, n, true)) {
        PyBuffer_Release(&rows);
        return nullptr;
    }
    const int32_t* row = (const int32_t*)rows.buf;
    int32_t* dist = (int32_t*)out.buf;
    for (Py_ssize_t k = 0; k < n; ++k) dist[k] = flat::approach_row(*env, row + k * flat::ROW);
    PyBuffer_Release(&rows);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

PyMethodDef METHODS[] = {
    {"make_board", make_board, METH_VARARGS, "make_board(masks, ints): the board, made once"},
    {"approach", (PyCFunction)(void (*)(void))approach, METH_FASTCALL,
     "approach(board, positions, i): the distance of row i"},
    {"approach_all", (PyCFunction)(void (*)(void))approach_all, METH_FASTCALL,
     "approach_all(board, positions, out): every row's distance into out"},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "kc_capi", nullptr, -1, METHODS};

}  // namespace

PyMODINIT_FUNC PyInit_kc_capi() { return PyModule_Create(&MODULE); }
