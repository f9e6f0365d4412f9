// Python binding of py_random.hpp: ``_core.SharedRandom``, one Python-compatible generator
// behind a lock, shared by a model's kernel, its native plans and its Python draws
// (codetok/engine/shared_random.py wraps it as a ``random.Random``).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <vector>

#include "kernels/py_random.hpp"

namespace py = pybind11;

void bind_random(py::module_& m) {
    using codetok::SharedRandom;
    py::class_<SharedRandom, std::shared_ptr<SharedRandom>>(m, "SharedRandom")
        .def(py::init<>())
        .def(
            "set_state",
            [](SharedRandom& r, const std::vector<uint64_t>& words) {
                std::lock_guard<std::mutex> lock(r.mutex);
                r.random.set_state(words);
            },
            py::arg("words"))
        .def("state",
             [](SharedRandom& r) {
                 std::lock_guard<std::mutex> lock(r.mutex);
                 return r.random.state();
             })
        .def("random",
             [](SharedRandom& r) {
                 std::lock_guard<std::mutex> lock(r.mutex);
                 return r.random.random();
             })
        .def("next_u32", [](SharedRandom& r) {
            std::lock_guard<std::mutex> lock(r.mutex);
            return r.random.next_u32();
        });
}
