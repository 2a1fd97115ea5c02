"""Package contract: importing compiles nothing; the kernels are lazy and cached."""

import subprocess
import sys


def test_import_compiles_no_kernel():
    code = (
        "import zipai_sim\n"
        "from zipai_sim.kernels import batch, deal, hand, opening\n"
        "ks = [deal.deal_chunks, hand.eval_hand, opening.analyze_chunks, batch.evaluate_batch]\n"
        "print(sum(len(k.signatures) for k in ks))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"


def test_kernels_are_cached_on_disk():
    from zipai_sim.kernels import batch, deal, hand, opening

    for k in (deal.deal_chunks, hand.eval_hand, opening.analyze_chunks, batch.evaluate_batch):
        assert type(k._cache).__name__ == "FunctionCache"  # cache=True (NullCache otherwise)


def test_warmup_runs():
    import zipai_sim

    assert zipai_sim.warmup() is None
