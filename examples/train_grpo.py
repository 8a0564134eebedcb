"""Train a model on TicketLedger with TRL's GRPO, the actions as tools (``baseline/trl_env.py``).

Needs TRL (and so torch, transformers, datasets) where it runs; TicketLedger does not depend on
them. Written against TRL's ``environment_factory`` (TRL 1.x, the v1.17 documentation of its
OpenEnv guide). Start the environment first, with enough sessions for a generation batch:

    ticketledger serve --port 8001          # TICKETLEDGER_MAX_SESSIONS defaults to 256
    pip install trl datasets
    python examples/train_grpo.py --env-base-url http://127.0.0.1:8001

Without ``--env-base-url`` the episodes run in the training process on ``DATABASE_URL`` (the
default SQLite file). See docs/training.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, installed or not


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="Qwen/Qwen3-0.6B", help="model to train (default %(default)s)")
    parser.add_argument("--env-base-url", default=None,
                        help="a running TicketLedger server (default: in-process on DATABASE_URL)")
    parser.add_argument("--tasks", default=None, help="comma-separated task ids (default: every task)")
    parser.add_argument("--variants", type=int, default=8, help="seeds 0..n-1 per task (default %(default)s)")
    parser.add_argument("--split", choices=("train", "dev", "test"), default=None,
                        help="train on a frozen split of the task families instead (docs/tasks.md)")
    parser.add_argument("--reward-mode", choices=("dense", "sparse", "binary"), default="dense",
                        help="reward mode chosen at reset (default %(default)s)")
    parser.add_argument("--num-generations", type=int, default=4, help="completions per prompt (GRPO group)")
    parser.add_argument("--gradient-accumulation-steps", type=int, default=8)
    parser.add_argument("--max-completion-length", type=int, default=4096,
                        help="tokens over the whole multi-turn episode (default %(default)s)")
    parser.add_argument("--output-dir", default="ticketledger-grpo")
    parser.add_argument("--vllm-mode", choices=("none", "colocate", "server"), default="none")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    from datasets import Dataset  # type: ignore[import-not-found,import-untyped,unused-ignore]
    from trl import GRPOConfig, GRPOTrainer  # type: ignore[import-not-found,import-untyped,unused-ignore]

    from baseline.trl_env import environment_factory, reward_func, training_rows

    tasks = args.tasks.split(",") if args.tasks else None
    dataset = Dataset.from_list(training_rows(tasks, range(args.variants), args.reward_mode,
                                              split=args.split))
    config = GRPOConfig(
        output_dir=args.output_dir,
        num_generations=args.num_generations,
        gradient_accumulation_steps=args.gradient_accumulation_steps,
        max_completion_length=args.max_completion_length,
        chat_template_kwargs={"enable_thinking": False},
        log_completions=True,
        **({"use_vllm": True, "vllm_mode": args.vllm_mode} if args.vllm_mode != "none" else {}),
    )
    trainer = GRPOTrainer(
        model=args.model,
        train_dataset=dataset,
        reward_funcs=reward_func,
        args=config,
        environment_factory=environment_factory(base_url=args.env_base_url,
                                                reward_mode=args.reward_mode),
    )
    trainer.train()
    return 0


if __name__ == "__main__":
    sys.exit(main())
