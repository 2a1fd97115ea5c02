"""Past one machine (issue 10 §6): every driver on a 2-worker Dask LocalCluster gives the local
result bit for bit (integer aggregates folded in chunk order, whatever the completion order)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import zipai_sim as zs
from zipai_sim import tables as T
from zipai_sim.studies.match import simulate_matches

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    from zipai_sim.cli.dask import local_cluster

    with local_cluster(2) as cluster, distributed.Client(cluster) as c:
        yield c


def test_simulate_deals(client):
    args = dict(seed=7, chunk_size=512, sample_per_chunk=2, progress=False)
    # batches of 8 chunks of 512: 3 tasks, folded in order whatever finishes first
    got = zs.simulate_deals("guangxi-81", 10_000, client=client, threads=2, **args)
    want = zs.simulate_deals("guangxi-81", 10_000, threads=1, **args)
    assert (got.n, got.partial) == (want.n, False)
    assert np.array_equal(got.counts, want.counts)
    assert np.array_equal(got.huxi_hist, want.huxi_hist)
    assert got.rows.equals(want.rows)
    # the header says where the work ran: this process's thread count would say nothing
    head = str(got.report()).splitlines()[0]
    assert "on Dask, 2 workers" in head and "thread" not in head.replace("start-up", "")
    assert "the workers' start-up counted" in head
    assert "1 thread" in str(want.report()).splitlines()[0]


def test_simulate_hands_and_tables(client):
    got = zs.simulate_hands("hunan-hengyang", 600, seed=3, chunk_size=50, rows=2,
                            client=client, progress=False)
    want = zs.simulate_hands("hunan-hengyang", 600, seed=3, chunk_size=50, rows=2,
                             progress=False)
    assert got[0].equals(want[0]) and got[1].equals(want[1])
    d = T.deal_table("guangxi-dazipai", 5000, seed=2, thresholds=[15, 25], chunk_size=256,
                     client=client)
    assert d.equals(T.deal_table("guangxi-dazipai", 5000, seed=2, thresholds=[15, 25],
                                 chunk_size=256))
    assert "on Dask, 2 workers" in str(d.report()).splitlines()[0]
    assert "on Dask, 2 workers" in str(got[0].report()).splitlines()[0]
    c = T.convergence_table("guangxi-81", n=5000, seed=2, points=4, chunk_size=256,
                            client=client)
    assert c.equals(T.convergence_table("guangxi-81", n=5000, seed=2, points=4, chunk_size=256))
    r = T.opening_records("changsha-paohuzi", 300, seed=1, chunk_size=40, client=client,
                          progress=False)
    assert pl.DataFrame(r).equals(pl.DataFrame(T.opening_records(
        "changsha-paohuzi", 300, seed=1, chunk_size=40, progress=False)))


def test_arena(client):
    got = zs.arena(["guangxi-81", "changde-paohuzi"], "greedy", "random", 300, seed=4,
                   chunk_size=32, client=client)
    want = zs.arena(["guangxi-81", "changde-paohuzi"], "greedy", "random", 300, seed=4,
                    chunk_size=32)
    assert pl.DataFrame(got).equals(pl.DataFrame(want))
    assert "on Dask, 2 workers" in str(got.report()).splitlines()[0]


@pytest.mark.slow  # ~30 s: the play run's workers load the play kernels
def test_calculator(client):
    hand = "一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十"
    got = T.calculate(hand, "changsha-paohuzi", sims=20_000, client=client)
    assert got.equals(T.calculate(hand, "changsha-paohuzi", sims=20_000))
    # a non-dealer's 20 cards at the deal, played from there
    got = T.calculate(hand, "changsha-paohuzi", play=600, client=client)
    assert got.equals(T.calculate(hand, "changsha-paohuzi", play=600))


def test_simulate_matches(client):
    got = simulate_matches("hunan-hengyang", 6, seed=1, goal="yinghuzi", client=client,
                           progress=False)
    want = simulate_matches("hunan-hengyang", 6, seed=1, goal="yinghuzi", progress=False)
    assert got.matches.equals(want.matches)


def test_reference_records_need_a_local_run(client):
    with pytest.raises(ValueError, match="records"):
        zs.simulate_hands("guangxi-81", 10, engine="reference", records=2, client=client)


def _numbers(path):
    return pl.read_parquet(path).select(pl.selectors.numeric() | pl.selectors.string())


def test_cli_on_a_local_cluster_and_on_a_scheduler(client, tmp_path, capsys):
    from test_cli import run

    argv = ["simulate", "--deals", "6000", "--chunk-size", "500", "--seed", "5"]
    code, _, err = run(argv + ["--out", str(tmp_path / "local.parquet")], capsys)
    assert code == 0, err
    code, _, err = run(argv + ["--out", str(tmp_path / "two.parquet"), "--dask-workers", "2"],
                       capsys)
    assert code == 0, err
    assert "dask: 2 workers" in err
    assert _numbers(tmp_path / "two.parquet").equals(_numbers(tmp_path / "local.parquet"))
    addr = client.scheduler.address
    code, _, err = run(["balance", "--hands", "200", "--seed", "5", "--thresholds", "15", "20",
                        "--out", str(tmp_path / "b.parquet"), "--scheduler", addr], capsys)
    assert code == 0, err
    code, _, err = run(["balance", "--hands", "200", "--seed", "5", "--thresholds", "15", "20",
                        "--out", str(tmp_path / "b1.parquet")], capsys)
    assert code == 0, err
    assert _numbers(tmp_path / "b.parquet").equals(_numbers(tmp_path / "b1.parquet"))


def test_cli_scheduler_without_workers_is_one_line(capsys, tmp_path):
    """A scheduler no worker has joined used to hold the command forever ("dask: 0 workers");
    it is refused after the connect timeout, nothing written."""
    import dask
    import distributed
    from test_cli import assert_one_line_error, run

    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as c, \
            dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        out = tmp_path / "s.parquet"
        assert_one_line_error(*run(["simulate", "--deals", "10", "--out", str(out),
                                    "--scheduler", c.scheduler_address], capsys),
                              "--scheduler", "no worker joined within 2s")
        assert not out.exists()


def test_cli_bad_scheduler_is_one_line(capsys):
    import dask
    from test_cli import assert_one_line_error, run

    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        assert_one_line_error(*run(["simulate", "--deals", "10", "--scheduler",
                                    "tcp://127.0.0.1:9"], capsys), "--scheduler",
                              "cannot connect")
    assert_one_line_error(*run(["simulate", "--deals", "10", "--dask-workers", "0"], capsys),
                          "--dask-workers")
