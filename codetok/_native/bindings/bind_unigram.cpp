// Python binding of the Unigram model (unigram.hpp): ``_core.UnigramCore`` (Viterbi
// segmentation of pieces); declared in bind_unigram.hpp.
#include "bindings/bind_unigram.hpp"

#include <vector>

namespace codetok {
namespace bind {

UnigramCore::UnigramCore(const py::list& pieces, const py::list& scores, long long unk_id,
                         double unk_score) {
    if (pieces.size() != scores.size()) throw py::value_error("pieces and scores differ in length");
    if (pieces.size() > static_cast<size_t>(INT32_MAX)) throw py::value_error("too many pieces");
    if (unk_id < -1 || unk_id >= static_cast<long long>(pieces.size()))
        throw py::value_error("unk_id must be -1 or an index into pieces");
    kernel_ = std::make_shared<codetok::UnigramKernel>(static_cast<int32_t>(unk_id), unk_score);
    std::vector<Cp> buf;
    for (size_t i = 0; i < pieces.size(); ++i) {
        buf.clear();
        append_cps(pieces[i].ptr(), buf);
        PyObject* score = PyList_GET_ITEM(scores.ptr(), static_cast<Py_ssize_t>(i));
        if (!PyFloat_Check(score) && !PyLong_Check(score))
            throw py::type_error("scores must be floats");
        const double value = PyFloat_AsDouble(score);
        if (value == -1.0 && PyErr_Occurred()) throw py::error_already_set();
        kernel_->add_piece(buf.data(), buf.size(), static_cast<int32_t>(i), value);
    }
}

py::object UnigramCore::viterbi(const py::str& piece) const {
    py::list one;
    one.append(piece);
    return viterbi_batch(one)[0];
}

py::list UnigramCore::viterbi_batch(const py::handle& pieces) const {
    Flat f = flatten(pieces);
    std::vector<int64_t> starts;
    std::vector<int32_t> ids;
    return counted_batch(
        f.size(),
        [&](size_t k) -> int64_t {  // -1: an unknown node is needed, none exists
            const size_t before = ids.size();
            if (!kernel_->viterbi(f.at(k), f.len(k), starts, ids)) return -1;
            return static_cast<int64_t>(ids.size() - before);
        },
        [&](size_t t, size_t c) -> py::object {
            py::list st(c);
            for (size_t j = 0; j < c; ++j)
                PyList_SET_ITEM(st.ptr(), j, PyLong_FromLongLong(starts[t + j]));
            return py::make_tuple(st, int_list(ids.data() + t, c));
        });
}

py::object UnigramCore::sample(const py::str& piece, double alpha, long long nbest,
                               const std::shared_ptr<codetok::SharedRandom>& rng) const {
    if (!rng) throw py::value_error("sample needs a SharedRandom");
    std::vector<Cp> cps = cps_of(piece);
    std::vector<int64_t> starts;
    std::vector<int32_t> ids;
    bool ok;
    {
        py::gil_scoped_release nogil;
        codetok::UnigramSampleScratch w;
        std::lock_guard<std::mutex> lock(rng->mutex);
        ok = codetok::unigram_sample(*kernel_, cps.data(), cps.size(), alpha, nbest,
                                     rng->random, starts, ids, w);
    }
    if (!ok) return py::none();
    py::list st(starts.size());
    for (size_t j = 0; j < starts.size(); ++j)
        PyList_SET_ITEM(st.ptr(), j, PyLong_FromLongLong(starts[j]));
    return py::make_tuple(st, int_list(ids.data(), ids.size()));
}

py::object UnigramCore::nbest(const py::str& piece, long long n) const {
    std::vector<Cp> cps = cps_of(piece);
    codetok::UnigramSampleScratch w;
    bool ok;
    {
        py::gil_scoped_release nogil;
        ok = codetok::unigram_nbest(*kernel_, cps.data(), cps.size(),
                                    n < 0 ? 0 : static_cast<size_t>(n), w);
    }
    if (!ok) return py::none();
    py::list out;
    for (size_t k = 0; k + 1 < w.path_first.size(); ++k) {
        const size_t a = w.path_first[k], b = w.path_first[k + 1];
        py::list st(b - a);
        for (size_t j = a; j < b; ++j)
            PyList_SET_ITEM(st.ptr(), j - a, PyLong_FromLongLong(w.path_starts[j]));
        out.append(py::make_tuple(py::make_tuple(st, int_list(w.path_ids.data() + a, b - a)),
                                  w.path_scores[k]));
    }
    return out;
}

}  // namespace bind
}  // namespace codetok

void bind_unigram(py::module_& m) {
    using codetok::bind::UnigramCore;
    py::class_<UnigramCore>(m, "UnigramCore")
        .def(py::init<const py::list&, const py::list&, long long, double>(), py::arg("pieces"),
             py::arg("scores"), py::kw_only(), py::arg("unk_id"), py::arg("unk_score"))
        .def("viterbi", &UnigramCore::viterbi, py::arg("piece"))
        .def("viterbi_batch", &UnigramCore::viterbi_batch, py::arg("pieces"))
        .def("sample", &UnigramCore::sample, py::arg("piece"), py::arg("alpha"),
             py::arg("nbest"), py::arg("rng"))
        .def("nbest", &UnigramCore::nbest, py::arg("piece"), py::arg("n"));
}
