"""Golden outputs (tests/golden_cases.py): every case, run now, gives byte for byte the files
stored under tests/goldens/ (after the normalisation of timings described there), and a
checkpoint written by the code the goldens were made on resumes, through ``zipai_sim.cli.main``,
to the result of the same run done uninterrupted.

Only ``zipai_sim.cli.main`` and the top-level ``zipai_sim`` names are used (by the cases), so
that these tests hold across a reorganisation of the package's modules. A failure here means a
change of behaviour: do not regenerate the goldens to make it pass (see golden_cases.py)."""

from __future__ import annotations

import difflib
import json

import pytest
from golden_cases import (
    CASES,
    CHECKPOINT_CASES,
    CHECKPOINTS,
    FIRST_PART,
    GOLDENS,
    RESUMED_PART,
    Case,
    run_case,
    stored,
)

DIFF_LINES = 60
REGENERATE = "uv run python tests/golden_cases.py --write"


def _diff(name: str, want: bytes, got: bytes) -> str:
    lines = list(difflib.unified_diff(want.decode(errors="replace").splitlines(keepends=True),
                                      got.decode(errors="replace").splitlines(keepends=True),
                                      f"stored/{name}", f"now/{name}", n=2))
    more = len(lines) - DIFF_LINES
    text = "".join(line if line.endswith("\n") else line + "\n" for line in lines[:DIFF_LINES])
    return text + (f"… {more} more diff lines\n" if more > 0 else "")


def assert_same(case: Case, got: dict[str, bytes]) -> None:
    """``got`` (``run_case``) equals the stored goldens of ``case``, file for file; else fail
    with the missing, extra and differing files and a unified diff of each."""
    want = stored(case)
    if not want:
        pytest.fail(f"no goldens stored for case {case.name!r} (tests/goldens/{case.name}/): "
                    f"make them with `{REGENERATE}` on a commit known to be good",
                    pytrace=False)
    problems = [f"missing now (stored, not made): {n}" for n in sorted(set(want) - set(got))]
    problems += [f"new now (made, not stored): {n}" for n in sorted(set(got) - set(want))]
    for name in sorted(set(want) & set(got)):
        if want[name] != got[name]:
            diff = _diff(f"{case.name}/{name}", want[name], got[name])
            problems.append(f"differs: {name}\n{diff}")
    if problems:
        pytest.fail(f"case {case.name!r} no longer gives its golden outputs "
                    f"(tests/goldens/{case.name}/):\n" + "\n".join(problems), pytrace=False)


WHOLE = [whole for whole, _ in CHECKPOINT_CASES.values()]


@pytest.mark.parametrize("case", CASES + WHOLE, ids=lambda c: c.name)
def test_case_gives_its_golden_outputs(case, tmp_path):
    assert_same(case, run_case(case, tmp_path / "run"))


def test_every_stored_golden_belongs_to_a_case():
    """A case dropped from golden_cases.py would otherwise leave its goldens unchecked."""
    names = {c.name for c in CASES + WHOLE} | {r.name for _, r in CHECKPOINT_CASES.values()}
    names |= {ck.folder.name for ck in CHECKPOINTS}
    folders = {p.name for p in GOLDENS.iterdir() if p.is_dir()}
    assert folders == names, (sorted(folders - names), sorted(names - folders))


def _output(transcript: bytes) -> str:
    """A one-step transcript less its command line: exit code, stdout, stderr."""
    return transcript.decode().split("\n", 1)[1]


@pytest.mark.parametrize("ck", CHECKPOINTS, ids=lambda c: c.name)
def test_stored_checkpoint_resumes_to_the_uninterrupted_result(ck, tmp_path):
    """tests/goldens/checkpoint-NAME/ holds a run interrupted after its first batch (chunks
    0-1 of 3), written by the code the goldens were made on; its part file names the aggregate
    class (``ck.cls``) by the module path of that code. Copied to a fresh folder and resumed with
    ``--resume`` through ``zipai_sim.cli.main``, it must give the stored result of the same
    command run uninterrupted: the same Parquet frame, the same metadata but the command line,
    the same printed tables."""
    assert sorted(p.name for p in ck.folder.iterdir()) == [FIRST_PART, "run.json"]
    whole, resume = CHECKPOINT_CASES[ck.name]
    got = run_case(resume, tmp_path / "run")  # copies the folder to run/ck, then resumes
    transcript = got["transcript.txt"].decode()
    assert "\nexit: 0\n" in transcript, transcript
    # the stored part was read back, not computed again: the resume computed chunk 2 only
    parts = sorted(p.name for p in (tmp_path / "run" / "ck").glob("part-*.parquet"))
    assert parts == [FIRST_PART, RESUMED_PART], parts
    want = stored(whole)
    frame, meta = f"files/{ck.out}.frame.txt", f"files/{ck.out}.meta.json"
    assert set(got) == set(want), (sorted(got), sorted(want))
    assert got[frame] == want[frame], "\n" + _diff(f"{whole.name}/{frame}", want[frame],
                                                   got[frame])
    got_meta, want_meta = json.loads(got[meta]), json.loads(want[meta])
    assert got_meta.pop("command").endswith(" --resume ck")
    want_meta.pop("command")
    assert got_meta == want_meta
    assert _output(got["transcript.txt"]) == _output(want["transcript.txt"]), "\n" + _diff(
        "transcript.txt", want["transcript.txt"], got["transcript.txt"])
    assert_same(resume, got)  # and the resumed run's own goldens
