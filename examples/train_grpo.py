"""Train a model on TicketLedger with TRL's GRPO, the actions as tools (``baseline/trl_env.py``).

Needs the ``train`` extra (torch, transformers, TRL, datasets; ``pip install -e ".[train]"``)
where it runs; TicketLedger itself does not depend on them. Runs on a CPU machine as written (no
bf16 there) and on a GPU. Start the environment first, with enough sessions for a generation
batch, or leave ``--env-base-url`` out to play the episodes in this process:

    ticketledger serve --port 8001          # TICKETLEDGER_MAX_SESSIONS defaults to 256
    python examples/train_grpo.py --env-base-url http://127.0.0.1:8001 --model PATH

Without ``--env-base-url`` the episodes run in the training process on ``DATABASE_URL`` (the
default SQLite file). The episodes are filed under one run named after the model
(``trl-grpo:<model>``). Each logged step prints one ``[train] {json}`` line (TRL's metrics: the
total reward, ``rewards/TicketLedgerToolEnv/mean`` from the environment, and each grade component
beside it); ``<output-dir>/ticketledger_run.json`` says where the episodes are and what the run
logged. See docs/training.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, installed or not

MAX_TOOL_CALLS = 12
"""Default bound on tool calls per rollout: a task takes at most 10 steps, so a rollout that
keeps calling tools after the episode ended (each answered "the episode is over") stops soon."""


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="Qwen/Qwen3-0.6B",
                        help="model to train: a hub name or a local PATH (default %(default)s)")
    parser.add_argument("--env-base-url", default=None,
                        help="a running TicketLedger server (default: in-process on DATABASE_URL)")
    parser.add_argument("--tasks", default=None, help="comma-separated task ids (default: every task)")
    parser.add_argument("--variants", type=int, default=8, help="seeds 0..n-1 per task (default %(default)s)")
    parser.add_argument("--split", choices=("train", "dev", "test"), default=None,
                        help="train on a frozen split of the task families instead (docs/tasks.md)")
    parser.add_argument("--reward-mode", choices=("dense", "sparse", "binary"), default="dense",
                        help="reward mode of the run's episodes (default %(default)s)")
    parser.add_argument("--observation-mode", choices=("compact", "full"), default="compact",
                        help="tool answers show what changed, or the whole observation (default %(default)s)")
    parser.add_argument("--num-generations", type=int, default=4, help="completions per prompt (GRPO group)")
    parser.add_argument("--per-device-train-batch-size", type=int, default=None,
                        help="default: TRL's; the generation batch must be a multiple of --num-generations")
    parser.add_argument("--gradient-accumulation-steps", type=int, default=8)
    parser.add_argument("--max-completion-length", type=int, default=4096,
                        help="tokens over the whole multi-turn episode (default %(default)s)")
    parser.add_argument("--max-tool-calls", type=int, default=MAX_TOOL_CALLS,
                        help="TRL's max_tool_calling_iterations (default %(default)s)")
    parser.add_argument("--max-steps", type=int, default=-1, help="optimiser steps (default: one epoch)")
    parser.add_argument("--learning-rate", type=float, default=None, help="default: TRL's")
    parser.add_argument("--temperature", type=float, default=None, help="default: TRL's")
    parser.add_argument("--logging-steps", type=int, default=1)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--output-dir", default="ticketledger-grpo")
    parser.add_argument("--vllm-mode", choices=("none", "colocate", "server"), default="none")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    import torch  # type: ignore[import-not-found,unused-ignore]
    from datasets import Dataset  # type: ignore[import-not-found,import-untyped,unused-ignore]
    from transformers import TrainerCallback  # type: ignore[import-not-found,unused-ignore]
    from trl import GRPOConfig, GRPOTrainer  # type: ignore[import-not-found,import-untyped,unused-ignore]

    from baseline.trl_env import component_reward_funcs, environment_factory, finish_run, training_rows

    tasks = args.tasks.split(",") if args.tasks else None
    dataset = Dataset.from_list(training_rows(tasks, range(args.variants), args.reward_mode,
                                              split=args.split))
    gpu = torch.cuda.is_available()
    optional: dict[str, Any] = {}
    for name in ("per_device_train_batch_size", "learning_rate", "temperature"):
        if getattr(args, name) is not None:
            optional[name] = getattr(args, name)
    if args.vllm_mode != "none":
        optional.update(use_vllm=True, vllm_mode=args.vllm_mode)
    components = component_reward_funcs()
    config = GRPOConfig(
        output_dir=args.output_dir,
        num_generations=args.num_generations,
        gradient_accumulation_steps=args.gradient_accumulation_steps,
        max_completion_length=args.max_completion_length,
        max_tool_calling_iterations=args.max_tool_calls,
        max_steps=args.max_steps,
        logging_steps=args.logging_steps,
        seed=args.seed,
        # the environment's get_reward is the reward (weight 1, added by TRL); the components
        # are reported beside it with weight 0
        reward_weights=[0.0] * len(components),
        bf16=gpu, use_cpu=not gpu,
        chat_template_kwargs={"enable_thinking": False},
        log_completions=True,
        report_to="none",
        save_strategy="no",
        **optional,
    )
    env_class = environment_factory(base_url=args.env_base_url, reward_mode=args.reward_mode,
                                    observation_mode=args.observation_mode, model=args.model,
                                    run_config={"split": args.split, "variants": args.variants,
                                                "num_generations": args.num_generations,
                                                "max_steps": args.max_steps})
    history: list[dict[str, Any]] = []

    class PrintLogs(TrainerCallback):  # type: ignore[misc,unused-ignore]
        def on_log(self, _args: Any, state: Any, _control: Any, logs: Any = None, **kwargs: Any) -> None:
            entry = {"step": state.global_step, **{k: v for k, v in (logs or {}).items()
                                                   if isinstance(v, (int, float))}}
            history.append(entry)
            print("[train] " + json.dumps(entry), flush=True)

    trainer = GRPOTrainer(
        model=args.model,
        train_dataset=dataset,
        reward_funcs=components,
        args=config,
        environment_factory=env_class,
        callbacks=[PrintLogs()],
    )
    status = "failed"
    try:
        trainer.train()
        status = "finished"
    finally:
        summary = {"global_step": trainer.state.global_step, "log": history}
        finish_run(env_class, summary, status)
        trainer.save_model(args.output_dir)
        record = {"run_id": env_class.run_id, "model": args.model, "status": status,
                  "where": args.env_base_url or "in-process", **summary}
        (Path(args.output_dir) / "ticketledger_run.json").write_text(json.dumps(record, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
