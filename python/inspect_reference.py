"""Reference numbers for trustlake's Inspect AI adapter, read by inspect-ai.

For each log given, reads it with inspect-ai's own reader
(`inspect_ai.log.read_eval_log`, attachments resolved) and prints one JSON
object per log: the run's task, model, status and epoch reducer, and per
sample × epoch what the adapter must reproduce: messages (role, text, tool
calls, tool name), the final assistant message, every score (raw value and
inspect-ai's own value_to_float), the grader model of model-graded scores,
error and limit. The Go test ingest/inspect_reference_test.go compares the
lake rows with these numbers.

Usage: .venv/bin/python python/inspect_reference.py LOG... > reference.json
"""

import hashlib
import json
import sys

from inspect_ai.log import read_eval_log
from inspect_ai.model import ChatMessageAssistant, ChatMessageTool
from inspect_ai.scorer import value_to_float


def text_of(message) -> str:
    """The message's text parts (images etc. left out), joined by newlines."""
    if isinstance(message.content, str):
        return message.content
    return "\n".join(c.text for c in message.content if c.type == "text")


def image_sha256(message) -> list[str]:
    """sha256 of each image's data (the data URI or URL, attachments resolved)."""
    if isinstance(message.content, str):
        return []
    return [hashlib.sha256(c.image.encode()).hexdigest() for c in message.content if c.type == "image"]


def content_types(message) -> list[str]:
    if isinstance(message.content, str):
        return ["text"]
    return [c.type for c in message.content]


def grader_model(score):
    grading = (score.metadata or {}).get("grading") or []
    for m in grading:
        if m.get("role") == "assistant" and m.get("model"):
            return m["model"]
    return None


def sample_ref(s, refs) -> dict:
    to_float = value_to_float()
    msgs = []
    for m in s.messages:
        row = {"role": m.role, "text": text_of(m), "content_types": content_types(m), "image_sha256": image_sha256(m)}
        if isinstance(m, ChatMessageAssistant) and m.tool_calls:
            row["tool_calls"] = [{"function": c.function, "arguments": c.arguments} for c in m.tool_calls]
        if isinstance(m, ChatMessageTool):
            row["function"] = m.function
        msgs.append(row)
    final = None
    for m in s.messages:
        if m.role == "assistant" and text_of(m).strip():
            final = text_of(m)
    scores = {}
    for name, sc in (s.scores or {}).items():
        scores[name] = {
            "value": sc.value,
            "float": to_float(sc.value) if sc.value is not None else None,
            "explanation": sc.explanation,
            "grader_model": grader_model(sc),
        }
    return {
        "id": str(s.id),
        "epoch": s.epoch,
        "target": s.target,
        "messages": msgs,
        "final": final,
        "scores": scores,
        "error": s.error.message if s.error else None,
        "limit": s.limit.type if s.limit else None,
        "attachment_refs": refs.get((str(s.id), s.epoch), 0),
    }


def log_ref(path: str) -> dict:
    # attachment references as stored (in the messages), then resolved
    raw = read_eval_log(path, resolve_attachments=False)
    refs = {(str(s.id), s.epoch): sum(json.dumps(m.model_dump()).count("attachment://") for m in s.messages) for s in (raw.samples or [])}
    log = read_eval_log(path, resolve_attachments=True)
    samples = [sample_ref(s, refs) for s in (log.samples or [])]
    samples.sort(key=lambda r: (r["id"], r["epoch"]))
    # each judge scorer against the programmatic one (includes) as ground
    # truth, over the samples without error: what `trustlake metrics` must count
    confusion = {}
    for name in [s.name for s in (log.eval.scorers or [])]:
        if not name.startswith("model_graded"):
            continue
        c = {"tp": 0, "fp": 0, "tn": 0, "fn": 0}
        for r in samples:
            if r["error"] or name not in r["scores"] or "includes" not in r["scores"]:
                continue
            judge, gt = r["scores"][name]["value"] == "C", r["scores"]["includes"]["float"] == 1.0
            c[("t" if judge == gt else "f") + ("p" if judge else "n")] += 1
        confusion[name] = c
    return {
        "confusion_vs_includes": confusion,
        "file": path.rsplit("/", 1)[-1],
        "status": log.status,
        "task": log.eval.task,
        "model": log.eval.model,
        "eval_id": log.eval.eval_id,
        "epochs": log.eval.config.epochs,
        "epochs_reducer": log.eval.config.epochs_reducer,
        "grader_role": (log.eval.model_roles or {}).get("grader").model if log.eval.model_roles else None,
        "scorers": [s.name for s in (log.eval.scorers or [])],
        "n_samples": len(samples),
        "samples": samples,
    }


if __name__ == "__main__":
    import inspect_ai

    out = {"inspect_ai": inspect_ai.__version__, "logs": [log_ref(p) for p in sys.argv[1:]]}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()
