"""The notebooks run top to bottom in a fresh Jupyter kernel (nbclient), offline, and draw.

Each notebook is executed as a user would run it (a new ``python3`` kernel, the working
folder a temporary one), against the codetok under test (the kernel's ``PYTHONPATH`` starts
with it) and with the Hugging Face libraries told to stay offline. A run passes when no
cell raises and the notebook shows at least one picture (an ``image/png`` output). The
committed notebooks keep their outputs, so their pictures show without running them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import codetok

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def _outputs(nb) -> list:
    return [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]


def _pictures(outputs: list) -> list:
    return [o for o in outputs if "image/png" in o.get("data", {})]


def test_there_are_three_notebooks_with_pictures_committed():
    nbformat = pytest.importorskip("nbformat")
    assert len(NOTEBOOKS) >= 3
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        assert _pictures(_outputs(nb)), f"{path.name} was committed without its pictures"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_in_a_fresh_kernel(path, tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    pytest.importorskip("matplotlib")
    here = str(Path(codetok.__file__).resolve().parents[1])
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))
    )
    for name in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.setenv(name, "1")
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()  # raises CellExecutionError, naming the cell, when one fails
    outputs = _outputs(nb)
    assert not [o for o in outputs if o.output_type == "error"]
    assert _pictures(outputs), f"{path.name} drew no picture"
    if path.name == "compare_tokenizers.ipynb":  # the README's picture
        assert (tmp_path / "tokens_per_kb.png").stat().st_size > 10_000
