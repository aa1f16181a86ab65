"""Checks deploy/k8s's job files without a cluster: each parses as YAML, and its Jobs have the fields
the sharded jobs rely on (an Indexed Job with completions equal to parallelism and N, the shard taken
from JOB_COMPLETION_INDEX; a merge Job; the same volume claim and JOB in both)."""
import pathlib
import sys

import yaml

root = pathlib.Path(__file__).resolve().parent.parent / "deploy" / "k8s"
errors = []


def need(cond, what):
    if not cond:
        errors.append(what)


def jobs(name):
    docs = [d for d in yaml.safe_load_all((root / name).read_text()) if d]
    for d in docs:
        need(d.get("apiVersion") and d.get("kind") and d.get("metadata", {}).get("name"),
             f"{name}: a document without apiVersion, kind or metadata.name")
    return [d for d in docs if d.get("kind") == "Job"], docs


def container(job):
    spec = job["spec"]["template"]["spec"]
    need(spec.get("restartPolicy") in ("Never", "OnFailure"), "a Job's pods must not restart always")
    (c,) = spec["containers"]
    need(c.get("image") and c.get("command"), "a container without image or command")
    env = {e["name"]: e.get("value") for e in c.get("env", [])}
    claims = [v["persistentVolumeClaim"]["claimName"] for v in spec.get("volumes", [])
              if "persistentVolumeClaim" in v]
    return c, env, claims


(shards,), docs = jobs("shards.yaml")
need(shards["apiVersion"] == "batch/v1", "shards.yaml: the Job is not batch/v1")
spec = shards["spec"]
need(spec.get("completionMode") == "Indexed", "shards.yaml: not an Indexed Job")
c, env, claims = container(shards)
need(spec.get("completions") == spec.get("parallelism") == int(env.get("N", -1)),
     "shards.yaml: completions, parallelism and N differ")
script = " ".join(c.get("args", []))
need("JOB_COMPLETION_INDEX" in script and "--shard" in script, "shards.yaml: no shard from the index")
need(any(d.get("kind") == "ConfigMap" and "args.txt" in d.get("data", {}) for d in docs),
     "shards.yaml: no ConfigMap with args.txt")
(merge,), _ = jobs("merge.yaml")
mc, menv, mclaims = container(merge)
need(menv.get("JOB") == env.get("JOB"), "merge.yaml: JOB differs from shards.yaml's")
need(mclaims == claims and claims, "merge.yaml: another volume claim than shards.yaml's")
for job in ("datagen", "match", "book"):
    need(job in script and job in " ".join(mc.get("args", [])), f"no {job} case in both files")

if errors:
    print("\n".join("FAILED: " + e for e in errors))
    sys.exit(1)
print("ok: deploy/k8s/shards.yaml and merge.yaml parse and have the fields of sharded jobs")
