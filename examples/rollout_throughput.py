"""Throughput of N concurrent rollouts through the TRL adapter, the gold player acting.

Each of N threads holds one ``TicketLedgerToolEnv`` (as TRL holds one per generation) and plays
episodes back to back for ``--seconds``: ``reset(task_id, seed)``, then one tool call per action of
the gold player's actions (``service/gold.py``; no model: this measures the environment side of a rollout).
Prints episodes/s, steps/s and the p50/p99 latency of a tool call.

    ticketledger serve --port 8001 &
    python examples/rollout_throughput.py --env-base-url http://127.0.0.1:8001 --concurrency 64
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, installed or not


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env-base-url", default=None, help="a running server (default: in-process)")
    parser.add_argument("--database-url", default=None, help="in-process only (default: DATABASE_URL)")
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args(argv)


    from baseline.trl_env import environment_factory
    from domain.tasks import default_catalog
    from service.gold import gold

    catalog = default_catalog()
    cls = environment_factory(base_url=args.env_base_url, database_url=args.database_url)
    latencies: list[float] = []
    episodes = [0]
    lock = threading.Lock()
    stop = time.monotonic() + args.seconds

    def worker(index: int) -> None:
        env, n, mine = cls(), 0, []
        while time.monotonic() < stop:
            task_id = catalog.task_ids[(index + n) % len(catalog.task_ids)]
            seed = index * 1000 + n
            env.reset(task_id=task_id, seed=seed)
            for action in gold(catalog.instance(task_id, seed)):
                began = time.perf_counter()
                getattr(env, action["action_type"])(**{k: v for k, v in action.items() if k != "action_type"})
                mine.append(time.perf_counter() - began)
            assert env.done and env.score == 1.0, (task_id, seed, env.score)
            n += 1
        with lock:
            latencies.extend(mine)
            episodes[0] += n

    began = time.monotonic()
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(args.concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - began
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"concurrency={args.concurrency} episodes={episodes[0]} steps={len(latencies)} "
          f"seconds={elapsed:.1f} episodes/s={episodes[0] / elapsed:.1f} "
          f"steps/s={len(latencies) / elapsed:.1f} "
          f"p50_ms={statistics.median(latencies) * 1000:.1f} p99_ms={p99 * 1000:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
