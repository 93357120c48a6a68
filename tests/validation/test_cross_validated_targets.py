"""Cross-validated accuracy over every shipped calibration case (issue #12).

Targets (issue #12, "Targets"): on cases the fit did not see, median absolute error at most
15 % for throughput and decode speed and 25 % for TTFT, and no case off by more than 2x. The
figures here are leave-one-group-out (app.engine.cross_validation): each engine, GPU family,
model kind and weight-format class left out in turn, the model fitted on the rest.

The model does not reach the targets yet (the worst groups are the ones with few cases:
MoE, FP4, Blackwell, and the folds that leave out most of the data, such as "dense"). Until
it does, ``RATCHET`` holds what it reaches (the figures of the shipped
cross_validation.json, rounded up by half a point): a change may only make them better, and
whoever improves them lowers the ratchet. ``TARGETS`` is what the issue asks for.
"""

import json

import pytest

from app import paths
from app.catalog.loader import load_catalog
from app.engine.calibration import load_cases
from app.engine.cross_validation import DIMENSIONS, beyond, residual_from_record
from app.report.accuracy import cross_validation, read_cases

TARGETS = {"throughput": 0.15, "decode": 0.15, "ttft": 0.25}
WORST_TARGET = 2.0
#: dimension -> metric group -> (median |error|, worst factor) the model reaches today.
#: Raised with "attention does not run at the FP4 rate" (METHOD.md, 2026-12-01): engine/throughput
#: worst 32.01 -> 32.03; engine/ttft worst 20.09 -> 20.11; gpu_family/decode worst 8.51 -> 8.52;
#: gpu_family/throughput worst 13.28 -> 13.39; gpu_family/ttft worst 26.2 -> 26.31; model_kind/ttft
#: worst 38.9 -> 38.95; weight_class/ttft worst 75.71 -> 75.98 (cases whose own physics did not
#: change moved with the refit); the medians that improved are tightened. Then the 72
#: TensorRT-LLM 0.14 cases on L40S and A100 PCIe (pub-443..514): weight_class/throughput median
#: 0.325 -> 0.412 (the 16-bit fold now holds A100 PCIe FP16), engine/decode 0.271 -> 0.29,
#: model_kind/ttft worst -> 39.39, weight_class/ttft worst -> 76.19; the rest tightened. The 30
#: MI300X batch-latency cases (pub-515..544) add 30 decode cases: weight_class/decode 0.37 ->
#: 0.376; the other decode medians fall (0.29 -> 0.167 engine-left-out).
#: Then expert parallelism and DP attention (43 EP/DP cases predicted, issue #12; the engine is
#: unchanged for the others, which move with the fit that now sees the 43): raised
#: engine/decode 0.167 -> 0.184, gpu_family/decode 0.177 -> 0.183, model_kind/decode 0.193 ->
#: 0.207, gpu_family/throughput 0.308 -> 0.325, model_kind/throughput 0.232 -> 0.251 and some
#: worst factors; tightened: weight_class/throughput 0.412 -> 0.38, the TTFT medians and the rest.
#: Raised on 2026-12-01 with "FP4 without FP4 tensor cores is a weight-only format" (METHOD.md; 606
#: cases): engine/throughput worst 30.55 -> 30.93; engine/ttft worst 18.52 -> 18.64;
#: gpu_family/decode worst 8.41 -> 8.96; gpu_family/throughput worst 13.35 -> 15.11;
#: gpu_family/ttft worst 26.46 -> 29.0; model_kind/throughput worst 11.37 -> 12.61;
#: weight_class/decode median 0.375 -> 0.409; weight_class/decode worst 10.15 -> 10.27;
#: weight_class/ttft worst 65.61 -> 68.78. The throughput and TTFT medians fell in every dimension
#: (the Blackwell fold 76.6 -> 32.5 %); the medians that improved are tightened.
#: Then the 36 TensorRT-LLM 0.14 A100 PCIe TP 4/8 cases (pub-545..580): model_kind/throughput
#: 0.245 -> 0.259, model_kind/ttft 0.941 -> 0.972, gpu_family/decode 0.183 -> 0.19,
#: weight_class/decode 0.409 -> 0.416, weight_class/ttft worst 68.78 -> 69.31; the rest tightened.
#: Then 44 TensorRT-LLM perf-overview cases (pub-581..624: the GB200 column, 32, and the RTX PRO
#: 6000 rows not in the set yet, 12; 686 predicted): raised engine/throughput 0.324 -> 0.342 (the
#: new cases are predicted 1.64x high, median, with TensorRT-LLM left out), gpu_family/throughput
#: worst 15.12 -> 15.13, gpu_family/ttft worst 28.98 -> 29.04, model_kind/throughput worst
#: 12.12 -> 12.16, weight_class/decode worst 10.32 -> 10.33 (cases that did not change, moved by
#: the refit that sees the 44); tightened gpu_family/decode, gpu_family/throughput,
#: model_kind/throughput and ttft, weight_class/ttft.
#: Then Intel's 16 Gaudi 3 cases (pub-427..442, optimum-habana static batches, METHOD.md
#: "Intel Gaudi 3", 2026-12-02; 702 predicted; their own folds 16.7 %, worst x1.45, none beyond
#: 2x): the refit of the shared effects (dense, 8-bit, the throughput intercept) that now see
#: them raised engine/decode 0.181 -> 0.186 (17.6 -> 18.4 %) and its worst 7.1 -> 7.22,
#: engine/throughput worst 30.05 -> 30.5, engine/ttft worst 18.54 -> 18.88, gpu_family/decode
#: worst 8.94 -> 9.12, gpu_family/throughput worst 15.13 -> 15.5, gpu_family/ttft 0.439 ->
#: 0.445 (43.5 -> 44.0 %) and its worst 29.04 -> 29.2; tightened engine/throughput 0.342 ->
#: 0.338, engine/ttft 0.559 -> 0.544, gpu_family/throughput 0.263 -> 0.257,
#: weight_class/throughput 0.371 -> 0.366.
#: Then "Weight-only MoE kernels pad an expert to one tensor-core tile" (METHOD.md, 2026-12-02;
#: 702 cases): raised engine/ttft 0.544 -> 0.563 (53.9 -> 56.2 %) and weight_class/ttft 0.313
#: -> 0.317 (31.0 -> 31.7 %): no TTFT case's physics moved much, the effects the metrics share
#: were refitted; worst factors engine/ttft 18.88 -> 18.93 and model_kind/ttft 38.37 -> 40.45
#: (both pub-248), gpu_family/throughput 15.5 -> 15.68, model_kind/throughput 12.16 -> 19.42
#: and weight_class/throughput 13.76 -> 21.85 (all three pub-304: SGLang's gpt-oss-20b on one
#: A100, 17x slower than vLLM's on the same GPU and benchmark, now predicted faster still).
#: Tightened the rest: weight format throughput 36.0 -> 27.6 %, decode 41.3 -> 28.0 %, GPU
#: family throughput 25.2 -> 22.0 %, model kind decode 18.8 -> 14.4 %.
#: Then 21 NVIDIA NIM 1.8.0 cases (pub-625..645: Llama 3.3 70B FP8 TP2 on 2 x H100, 5000/500,
#: TTFT, ITL and output throughput at 1 to 250 users; 723 predicted): raised engine/decode
#: 0.184 -> 0.2, gpu_family/decode 0.186 -> 0.198 (six ITL cases 0.8-1.2x, the refit moved the
#: rest), engine/ttft 0.563 -> 0.597 and weight_class/ttft 0.317 -> 0.407 (seven TTFT cases under
#: load, 0.4-1.5x; the TTFT cases left out by weight format are few, 74), engine/decode worst
#: 7.12 -> 7.18, gpu_family/ttft worst 28.54 -> 28.93, weight_class/decode worst 8.38 -> 8.41;
#: tightened gpu_family/ttft, model_kind/ttft, weight_class/decode.
#: Then the 20 remaining B200/H200/H100 rows of the TensorRT-LLM perf-overview (pub-646..665;
#: 743 predicted): raised the worst factors engine/decode 7.18 -> 7.2, gpu_family/throughput
#: 15.68 -> 15.7, gpu_family/ttft 28.93 -> 28.97, model_kind/decode 10.45 -> 10.48,
#: weight_class/decode 8.41 -> 8.43, weight_class/ttft 64.68 -> 64.71 (older cases moved by the
#: refit); tightened engine/decode, model_kind/throughput and ttft, weight_class/ttft.
#: Then the busiest expert-parallel rank (balls into bins, METHOD.md, Step 4; 743 cases):
#: raised engine/throughput 0.327 -> 0.328 (32.7 % before and after; 0.3273 against a ratchet
#: rounded to 0.327), worst factors gpu_family/ttft 28.97 -> 29.0 and weight_class/ttft 64.71
#: -> 65.03 (both pub-224, vLLM DeepSeek-R1 TTFT on MI300X without EP): its physics did not
#: change, it moved with the refit of the factors that now see the EP cases' slower steps;
#: tightened engine/decode 0.199 -> 0.197, model_kind/throughput 0.242 -> 0.240 and
#: weight_class/decode 0.269 -> 0.267.
#: Then "All requests at once" from the mechanism (METHOD.md, 2026-12-02: ramp-up, steady refills,
#: a draining tail, geometric output lengths for ShareGPT; 743 cases): every throughput figure and
#: every decode worst factor fell; raised gpu_family/ttft 0.415 -> 0.447 and its worst 29.0 ->
#: 31.22, model_kind/ttft 0.786 -> 0.803, weight_class/decode 0.267 -> 0.289, weight_class/ttft
#: worst 65.03 -> 71.15: the TTFT of a burst's waiting requests now adds their own prefill beside
#: the running batch, which lifts the RTX 4090 ShareGPT TTFTs (pub-195, pub-198, x13 high in the
#: GPU-family fold) to x15, and the refit that sees the new burst throughputs moved cases whose
#: physics did not change (the SGLang DeepSeek-R1 closed-loop TPOTs pub-229, 234, 237 in the
#: weight-format fold); the rest tightened.
#: Then MLA decoded absorbed (METHOD.md, Step 4; 743 cases): raised model_kind/decode 0.134 ->
#: 0.136 (12.9 -> 13.5 %) and weight_class/ttft 0.377 -> 0.379 (37.2 -> 37.9 %): the per-metric
#: effects refitted to MLA's slower decode attention; worst factors engine/ttft 16.27 -> 16.52
#: (pub-248), gpu_family/ttft 31.22 -> 31.36 and weight_class/ttft 71.15 -> 72.47 (pub-224; both
#: DeepSeek-R1 TTFT under load on vLLM), gpu_family/decode 8.39 -> 8.4 and model_kind/decode
#: 9.37 -> 9.38 (pub-215, a dense INT4 model: the refit); tightened engine/decode 0.178 ->
#: 0.173, gpu_family/decode 0.189 -> 0.185, model_kind/throughput 0.224 -> 0.222.
#: Then the weight-only MoE kernels named per engine (METHOD.md, 2026-12-02: vLLM's Marlin 16
#: rows on Ampere and Ada, triton_kernels 64 for vLLM on Hopper and for SGLang; TensorRT-LLM,
#: whose kernel is not named, back to the fitted 256 its shipped factors were fitted with, so
#: that its Hopper gpt-oss sizing is not 1.1-2.5x high; 743 cases): raised engine/decode worst
#: 6.4 -> 6.48; gpu_family/throughput 0.221 -> 0.222 (21.7 -> 22.2 %); model_kind/decode worst
#: 9.38 -> 9.53; model_kind/ttft worst 37.16 -> 38.02; weight_class/decode worst 7.53 -> 7.58;
#: weight_class/throughput 0.227 -> 0.228 (22.3 -> 22.8 %) (the decode worst is pub-215, vLLM AWQ
#: TPOT in a 1,000-request burst; the rest moved with the refit); tightened the rest.
#: Then MI300X/MI325X (and, by analogy, MI350X/MI355X) decode at their sustained bandwidth
#: (gpus.toml bandwidth_derate 0.92, METHOD.md "AMD CDNA 3", 2026-12-02; CDNA 3 left out:
#: throughput 44.6 -> 38.9 %, decode 13.2 -> 10.5 %): raised model_kind/decode 0.136 -> 0.161
#: (13.5 -> 15.6 %) and the worst factors gpu_family/decode 8.4 -> 8.51, gpu_family/throughput
#: 11.2 -> 11.27, model_kind/ttft 38.02 -> 39.35, weight_class/decode 7.58 -> 7.66 (the CDNA 3
#: effect refitted moves cases of the other folds); tightened engine/decode 0.17 -> 0.167,
#: engine/ttft 0.573 -> 0.569, gpu_family/decode 0.183 -> 0.172 (17.8 -> 16.7 %),
#: gpu_family/ttft 0.447 -> 0.44, weight_class/decode 0.276 -> 0.26 (27.1 -> 25.5 %).
#: Then TTFT in waves, the offline harness and the prefill step's cost (METHOD.md "TTFT: waves,
#: offline harnesses, the prefill step", 2026-12-02): a closed loop of fixed lengths prefills
#: each wave's prompts together, an offline harness (gptSessionBenchmark) pays no API-server
#: latency, a prefill chunk pays the per-step cost. The TTFT medians and worst factors fell in
#: the engine and model-kind folds (743 cases, main 0476902: 58.6 -> 36.7 %, 79.8 -> 31.2 %;
#: worst x16.3 / x31.2 / x37.2 / x71.1 -> x6.3 / x14.9 / x10.5 / x9.3). Raised (rounded-up figures,
#: rebased on main 66c27cd): engine/decode 0.167 -> 0.175 and its worst 6.48 -> 6.7,
#: engine/throughput 0.298 -> 0.304 and its worst 16.06 -> 16.28, gpu_family/decode 0.172 -> 0.191
#: and its worst 8.51 -> 8.56, weight_class/throughput 0.228 -> 0.234, weight_class/ttft 0.379 ->
#: 0.444. The GPU-family and weight-format TTFT folds rose
#: because the 20 ms fixed latency the reference charged TensorRT-LLM's in-process batch-1 runs
#: hid how far FP8 and Ada/Ampere prefill sit from the reference (with 8-bit left out the 16 FP8
#: batch-1 cases sit well below x1); decode and throughput through the effects TTFT shares with
#: them in the fit (the DeepSeek-R1 wave cases, no longer x0.03 outliers that Huber's weights set
#: aside, now weigh on the MLA, vLLM and 8-bit levels).
#: Then 33 GH200 cases (pub-666..698: the GH200 480GB column of the TensorRT-LLM v0.17 table,
#: Llama 3.1 8B/70B, Mistral 7B, Mixtral 8x7B, TP1 FP8; 776 predicted), predicted low (0.5-0.7x,
#: GPU family left out): raised engine/throughput 0.304 -> 0.32, gpu_family/throughput 0.222 ->
#: 0.245, model_kind/decode 0.161 -> 0.179 (no decode case changed; the refit moved them), the
#: worst factors engine/ttft 6.14 -> 6.27 and model_kind/ttft 11.06 -> 12.27 (older TTFT cases
#: moved by the refit).
#: Then SGLang's MXFP4 MoE before Hopper skipped (pub-304, pub-317: a fallback path no profile
#: models, the SGLang profile's unsupported_formats kind unmodelled; 774 predicted): the worst
#: throughput factors fell 16.2 / 10.7 / 11.4 / 14.0 -> 4.9 / 4.7 / 5.3 / 4.9; with the two 4.6-16x
#: residuals no longer pulling the SGLang and FP4-weight-only levels down, the refit loosened
#: gpu_family/ttft 0.44 -> 0.45 (worst 14.62 -> 14.67), model_kind/decode 0.179 -> 0.18 (worst ttft
#: 12.27 -> 12.31), weight_class/throughput 0.232 -> 0.234 (worst ttft 9.28 -> 9.83); no case of
#: those metrics changed, the shared levels moved.
#: Then Poisson arrivals queue (METHOD.md Step 4, `performance.open_loop`: the prompts' M/D/1
#: wait for the prefill ahead, the M/D/c wait for a slot, capped by the run's length; 774
#: predicted): raised weight_class/ttft 0.444 -> 0.447 (44.38 -> 44.64 %) and its worst 9.83 ->
#: 9.84, model_kind/decode 0.18 -> 0.181 (17.98 -> 18.01 %), the worst factors engine/decode
#: 6.57 -> 6.58 and gpu_family/ttft 14.67 -> 14.7. The three TTFT cases at a request rate
#: (TensorRT-LLM 0.14, Poisson QPS=2, case-088/093/094, already predicted x1.0-1.9 too slow)
#: now carry their 0.2-1.7 ms of queueing (case-094 x1.443 -> x1.473 with 8-bit left out), and
#: the refit of the levels they share moves the rest; no other case's physics changed.
#: Then a finite run of Poisson arrivals ramps up and drains (`performance.finite_run`: the
#: batch grows while requests arrive, cannot settle past capacity and cannot exceed the run's
#: N): case-095 (70B on 4 x H100, QPS=16, ITL) x3.35 / x3.10 / x0.23 / x2.86 -> x1.50 / x1.16 /
#: x0.23 / x0.88; tightened model_kind/decode 0.181 -> 0.175 (18.01 -> 17.46 %) and
#: weight_class/decode 0.24 -> 0.233 (23.93 -> 23.28 %); raised engine/decode 0.165 -> 0.166
#: (16.38 -> 16.50 %) and the worst weight_class/ttft 9.84 -> 9.85 (cases whose physics did not
#: change, moved by the refit).
#: Then MXFP4 at the FP8 rate on Blackwell, gpt-oss's attention and head at the BF16 rate
#: (METHOD.md "MXFP4 runs at the FP8 rate", 2026-12-02; 774 predicted; the Blackwell throughput
#: fold 23.0 -> 17.4 %, FP4 21.0 -> 15.0 %, TensorRT-LLM 34.3 -> 32.7 %): raised engine/ttft
#: 0.38 -> 0.382 (37.8 -> 38.1 %), model_kind/ttft 0.289 -> 0.299 (28.9 -> 29.9 %) and its worst
#: 12.31 -> 12.4 (pub-195), weight_class/ttft 0.447 -> 0.457 (44.6 -> 45.6 %), and the worst
#: factors model_kind/decode 9.21 -> 9.28, model_kind/throughput 5.29 -> 5.31,
#: weight_class/decode 7.57 -> 7.6: no TTFT case runs MXFP4 on Blackwell, every TTFT case moved
#: by at most 4 % with the refit of the effects the metrics share (the FP4, Blackwell, MoE and
#: TensorRT-LLM levels, which now see the gpt-oss runs slower); tightened the rest.
#: Then the prompt's attention in the KV cache's arithmetic (METHOD.md, 2026-12-02; the
#: throughput medians fall in every fold, 29.2 / 22.8 / 20.7 / 21.4 -> 28.8 / 22.0 / 20.4 /
#: 20.4 %, engine/decode 15.8 -> 14.8 %): raised engine/ttft 0.382 -> 0.388, gpu_family/ttft
#: 0.432 -> 0.435, model_kind/ttft 0.299 -> 0.302, weight_class/ttft 0.457 -> 0.461 (one TTFT
#: case's physics moved, pub-031, to the slow side; the others by the refit),
#: gpu_family/decode 0.183 -> 0.185, model_kind/decode 0.175 -> 0.177, and the worst factors
#: engine/throughput 4.82 -> 4.86 and model_kind/throughput 5.31 -> 5.37 (pub-026, vLLM
#: DeepSeek-R1 with 127-token prompts, whose attention is a negligible share: the refit),
#: gpu_family/throughput 4.57 -> 4.70 (pub-392, TensorRT-LLM BF16 on A100, low: the refit),
#: engine/decode 6.54 -> 6.56, gpu_family/ttft 14.56 -> 14.59; tightened the rest.
#: Then vLLM V1's max_num_seqs by GPU memory (1024 on GPUs of 70 GiB or more but the A100, else
#: 256; calibration.v1_batch_defaults; rebased on main b8a125a): the GPUStack H100 bursts' TPOT
#: (pub-207..217) from 0.11-0.19x towards 0.4-0.7x, decode worst factors engine 6.56 -> 1.97, GPU
#: family 8.45 -> 2.54, model kind 9.28 -> 4.26, weight format 7.6 -> 2.56. Raised (the refit of
#: the per-sequence step cost, which now sees batches of 1000, moves the other cases):
#: gpu_family/decode 0.185 -> 0.219, weight_class/decode 0.228 -> 0.23, engine/throughput 0.289
#: -> 0.292, weight_class/throughput 0.205 -> 0.206, gpu_family/ttft 0.435 -> 0.436,
#: model_kind/ttft 0.302 -> 0.305 and its worst 12.2 -> 12.45, weight_class/ttft worst 9.12 ->
#: 9.17; tightened the rest.
#: Then the 29 perf-overview 1024/1024 rows (pub-699..727, 3,000 requests stated by the doc's
#: dataset table; 803 predicted; no model change): raised model_kind/throughput 0.202 -> 0.209
#: (20.1 -> 20.8 %: the new MoE NVFP4 Qwen3 rows are 1.2-1.5x high with "MoE" left out) and its
#: worst 4.98 -> 5.02 (pub-392, TensorRT-LLM BF16 on A100, low), engine/ttft 0.386 -> 0.388,
#: gpu_family/decode 0.219 -> 0.221, gpu_family/ttft 0.436 -> 0.44, model_kind/decode 0.175 ->
#: 0.177 and the worst factors engine/decode 1.98 -> 1.99 (pub-215), gpu_family/throughput
#: 4.7 -> 4.81 and weight_class/throughput 3.85 -> 3.87 (pub-392), gpu_family/ttft 13.21 ->
#: 13.24 (pub-195): no TTFT or decode case is new, they moved with the refit that now sees 29
#: more TensorRT-LLM throughput rows; tightened the rest (throughput: engine 29.1 -> 28.9 %,
#: GPU family 21.9 -> 21.5 %, weight format 20.6 -> 20.3 %).
#: Then the request counts of the 108 TensorRT-LLM 0.14.0 trtllm-bench cases (pub-443..580),
#: stated by their doc's dataset table and now set (num_prompts, 1,000-30,000: bursts, not the
#: steady state; throughput medians 28.9 / 21.5 / 20.8 / 20.3 -> 28.2 / 21.4 / 20.9 / 20.3 %,
#: the 108 cases' engine-left-out median 27.1 -> 25.3 %): raised engine/decode 0.148 -> 0.151,
#: gpu_family/ttft 0.44 -> 0.442, model_kind/throughput 0.209 -> 0.21 and the worst factors
#: engine/ttft 6.1 -> 6.12, gpu_family/ttft 13.24 -> 13.25, model_kind/decode 4.26 -> 4.27,
#: weight_class/decode 2.52 -> 2.53 (no TTFT or decode case changed: the refit); tightened
#: the rest.
#: Then the request counts of the 74 TensorRT-LLM cases of calibration_cases.json from the
#: v0.17 perf-overview (case-001..062, trtllm-bench, its dataset table: 1,000-30,000) and its
#: v0.14 online-serving table (case-087..098, "with 500 requests"), stated and now set: raised
#: gpu_family/decode 0.217 -> 0.224, gpu_family/throughput 0.215 -> 0.219, model_kind/throughput
#: 0.21 -> 0.215, weight_class/decode 0.224 -> 0.229 and the worst factors engine/ttft 6.12 ->
#: 6.15, model_kind/decode 4.27 -> 4.29, model_kind/ttft 11.95 -> 11.96, weight_class/ttft
#: 9.05 -> 9.06: the 62 v0.17 rows were already predicted low (0.713x, median, with the GPU
#: family left out) and their bursts' ramp and drain take them to 0.705x, the rest
#: moved with the refit; case-095 (QPS 16, 500 requests) x1.39 -> x0.88 with the engine left
#: out. A stated setting is kept even where the fold moves the wrong way.
#: Then the request counts of the 7 TensorRT-LLM 1.0 perf-overview cases of
#: calibration_cases_2.json (case-063..078 at 1000/1000 and 2048/128: 3,000, its dataset
#: table), stated and now set: raised engine/ttft 0.384 -> 0.387, model_kind/ttft 0.294 ->
#: 0.296, weight_class/decode 0.229 -> 0.232, weight_class/throughput 0.203 -> 0.204 and the
#: worst factors gpu_family/throughput 4.76 -> 4.79, gpu_family/ttft 13.25 -> 13.26,
#: model_kind/throughput 4.98 -> 5.0, model_kind/ttft 11.96 -> 12.02, weight_class/throughput
#: 3.84 -> 3.85 (no TTFT or decode case changed: the refit); the throughput medians fell
#: (GPU family 21.9 -> 21.7 %, model kind 21.4 -> 21.1 %). case-071 (Llama 3.3 70B NVFP4, PP 8
#: on 8 RTX PRO 6000) moves x1.64 -> x0.64 fitted (probably its steady state held more sequences in
#: flight than the run's 3,000); case-078 (Maverick FP8 TP 8 on H200) x0.84 -> x0.66.
#: Raised with "Block-scaled FP8 GEMMs, and a prompt's chunk in a decode step" (METHOD.md,
#: 2026-12-02; main 27776eb before): engine/decode 0.151 -> 0.168, engine/decode worst 1.96 ->
#: 1.97, engine/throughput 0.283 -> 0.293, gpu_family/decode worst 2.54 -> 2.57,
#: model_kind/decode 0.163 -> 0.184, model_kind/ttft 0.296 -> 0.308, weight_class/decode 0.232
#: -> 0.263, weight_class/decode worst 2.51 -> 3.11, weight_class/throughput 0.204 -> 0.218,
#: weight_class/throughput worst 3.85 -> 3.93: under load a decode step's prompt tokens now cost
#: their chunk's expert efficiency, so loaded TPOTs of MoE runs are predicted faster, and the
#: refit moves the others; in return the worst throughput and TTFT factors and the TTFT medians
#: fall (METHOD.md lists them) and fewer cases are beyond 2x; the rest tightened.
#: Then the six GPTQ INT8 (W8A16) cases (pub-200..205: vLLM 0.9.2 on one RTX 4090, 1,000
#: ShareGPT prompts at once, the ExLlamaV2 and Marlin kernels), predicted since the catalog has
#: the weight-only INT8 format int8-gptq (809 predicted): they share the RTX 4090 bursts' errors
#: (TTFT x5 high, throughput x0.67, TPOT x1.5 at the reference factors), which raised
#: engine/ttft 0.368 -> 0.381 and its worst 5.69 -> 6.56, gpu_family/decode 0.213 -> 0.23 and
#: its worst 2.57 -> 2.61, gpu_family/throughput 0.212 -> 0.221 and its worst 3.76 -> 3.88,
#: model_kind/decode 0.184 -> 0.192, model_kind/throughput 0.201 -> 0.202 and its worst 4.7 ->
#: 4.8, model_kind/ttft 0.308 -> 0.321, weight_class/ttft 0.431 -> 0.46 and its worst 6.23 ->
#: 7.61 (the 8-bit TTFT level they join); tightened the rest (the burst TTFT's slots freeing
#: from the first step when lengths vary took the worst gpu_family/ttft 12.19 -> 9.83).
#: Then the elementwise kernels between the GEMMs (norms, the MLP's activation, quantising a
#: W8A8 format's activations; METHOD.md "What does not run at the FP8 rate", 2026-12-02):
#: raised gpu_family/decode 0.23 -> 0.238, model_kind/throughput 0.202 -> 0.207,
#: model_kind/ttft 0.321 -> 0.337 (the L40S FP8 TTFTs now predicted slow with dense left out),
#: weight_class/decode 0.263 -> 0.276 and its worst 3.11 -> 3.15, weight_class/throughput worst
#: 3.92 -> 3.99 (pub-008 x3.92 -> x3.99, gpt-oss on SGLang at Hopper, and pub-226 x0.32 for the
#: decode worst: both moved by the refit); tightened the rest: TTFT
#: engine 0.381 -> 0.334, GPU family 0.365 -> 0.335, weight format 0.46 -> 0.399.
#: Raised with the host work per step (METHOD.md, Step 4, "Host work per step", 2026-12-02:
#: the reference profile pays 5 us per running request and step where the engine's loop is
#: Python, none for the C++ runtimes): engine/ttft 0.334 -> 0.335 and its worst 6.27 -> 6.29,
#: engine/decode worst 1.93 -> 1.94, gpu_family/decode 0.238 -> 0.245 and its worst 2.54 ->
#: 2.55, gpu_family/throughput 0.206 -> 0.207, model_kind/decode 0.172 -> 0.178 and its worst
#: 3.06 -> 3.07, model_kind/throughput worst 4.69 -> 4.72, model_kind/ttft worst 8.01 -> 8.16,
#: weight_class/throughput 0.207 -> 0.209 (the refit of the levels: the vLLM MI300X e2e
#: latencies at 64-128 users, near the GPU-family decode median, x0.87 -> x0.85); tightened
#: the rest (engine/throughput 0.272 -> 0.259: the Python engines' large batches no longer
#: look slower per GPU than the C++ runtimes').
#: Then gpt-oss's kernels as engine-profile data (METHOD.md "gpt-oss's kernels", 2026-12-02:
#: TensorRT-LLM's TRITON MoE on Hopper at 64 rows, triton_kernels' Hopper rate 0.61 of a dense
#: GEMM, vLLM's Triton unified attention for sink models on Ampere and Ada at 16 FLOP per K/V
#: byte; the twelve medians' sum 312.3 -> 300.2 on main 8eb5f19): raised model_kind/decode
#: 0.178 -> 0.198 (17.8 -> 19.8 %: the dense-left-out fold's decode level, refitted on MoE
#: runs now predicted slower), gpu_family/decode 0.245 -> 0.248, model_kind/throughput 0.205
#: -> 0.21 and its worst 4.72 -> 5.08 (pub-026, vLLM DeepSeek-R1, moved by the refit),
#: weight_class/decode 0.274 -> 0.276 and its worst 3.14 -> 3.24 (pub-226, the refit);
#: tightened the rest (TTFT engine 33.4 -> 27.9 %, weight format 39.8 -> 35.1 %, throughput
#: engine 25.8 -> 24.5 %).
#: Then the MoE's permute and combine kernels (METHOD.md "The MoE's permute and combine",
#: 2026-12-03; sum of the twelve medians 300.2 -> 297.6): raised engine/decode 0.139 -> 0.14
#: and its worst 1.94 -> 1.95, gpu_family/throughput 0.2 -> 0.202, gpu_family/decode worst
#: 2.51 -> 2.52, model_kind/decode worst 2.6 -> 2.61, weight_class/decode 0.276 -> 0.277 and
#: its worst 3.24 -> 3.27, weight_class/throughput 0.203 -> 0.207 (the refit of the levels:
#: MoE runs now predicted a little slower move the FP4 and family levels); tightened the rest
#: (model kind TTFT 32.8 -> 31.9 %, decode 19.8 -> 19.2 %, throughput 21.0 -> 20.4 %).
#: Then the expert GEMMs' reduction length (METHOD.md "The expert's shape", 2026-12-03; sum
#: 297.6 -> 290.7): raised engine/decode 0.14 -> 0.151, engine/throughput 0.242 -> 0.253,
#: gpu_family/decode 0.245 -> 0.247, gpu_family/throughput 0.202 -> 0.208 and TTFT worst 8.5
#: -> 8.62, weight_class/decode 0.277 -> 0.279, throughput 0.207 -> 0.212 and TTFT worst 5.23
#: -> 5.31 (the shipped profiles, fitted without the term, now size the MoE runs a little
#: slow in-sample); tightened the rest (model kind decode 19.2 -> 14.6 %, TTFT 31.9 -> 26.6 %).
#: Then the 36 trtllm-bench runs whose request count is not stated skipped (the perf-overview's
#: 1000/1000 and 1024/2048 rows, case-079, case-082; calibration._check_run_length, 2026-12-03;
#: 773 predicted; sum 290.7 -> 288.1): raised gpu_family/decode 0.247 -> 0.248 and its worst
#: 2.45 -> 2.46, gpu_family/throughput 0.208 -> 0.215 and its worst 3.42 -> 3.49, engine/decode
#: worst 1.88 -> 1.92, engine/throughput worst 3.76 -> 3.92, model_kind/throughput worst 4.56 ->
#: 4.57, model_kind/ttft 0.266 -> 0.267 and its worst 6.59 -> 6.79, weight_class/decode worst
#: 2.93 -> 2.97, weight_class/throughput worst 3.47 -> 3.56 (the refit of the levels without the
#: 36; the throughput folds lost 36 cases, most of them predicted high); tightened the rest
#: (model kind throughput 19.8 -> 18.1 %, engine decode 15.0 -> 14.2 %).
#: Then a fixed time per touched expert of a MoE layer (METHOD.md "A touched expert's fixed
#: cost", 2026-12-03; sum 288.1 -> 285.0): raised engine/decode 0.142 -> 0.15 (vLLM's dense
#: decode runs, pub-517..543, predicted 2-3 % further low with vLLM left out: the other engines'
#: MoE levels refit a little faster), engine/throughput worst 3.92 -> 3.93, engine/ttft 0.276 ->
#: 0.278, gpu_family/throughput 0.215 -> 0.216 and its worst 3.49 -> 3.51, gpu_family/ttft worst
#: 8.56 -> 8.58, model_kind/decode worst 2.55 -> 2.66 (case-095, dense TensorRT-LLM decode
#: predicted from the MoE and MLA levels, x2.53 -> x2.66), weight_class/throughput worst 3.56 ->
#: 3.57; tightened the rest (model kind decode 14.0 -> 12.4 %, TTFT 26.7 -> 25.4 %).
#: Then NCCL's per-step ring latency over PCIe and 28/35 of the bus bandwidth beyond 4 PCIe GPUs
#: (METHOD.md "PCIe all-reduces", 2026-12-03; sum 285.0 -> 277.2): raised model_kind/ttft
#: 0.254 -> 0.26 (pub-414, Falcon-180B TTFT on 8 L40S with 2,048 prompt tokens, crossed the
#: median: its 60 MB prefill all-reduces now run at the lower share), model_kind/decode worst
#: 2.66 -> 2.81 (case-095, dense TensorRT-LLM decode predicted from the MoE and MLA levels,
#: x2.66 -> x2.81 low: those levels refit with the Mixtral TP4/TP8 A100 PCIe runs' slower
#: all-reduces), gpu_family/throughput worst 3.51 -> 3.52 (pub-026, 3.509 -> 3.512) and
#: gpu_family/ttft worst 8.58 -> 8.59 (pub-195, 8.575 -> 8.587), both by the refit; tightened
#: the rest (engine throughput 24.6 -> 23.0 %, model kind throughput 17.8 -> 16.6 %).
#: Then a 12 us floor under each all-reduce over MI300X's xGMI mesh (METHOD.md "The xGMI
#: all-reduce floor", 2026-12-03; sum 277.2 -> 270.1): raised weight_class/ttft 0.345 -> 0.346
#: (34.51 %) and its worst 5.1 -> 5.11 (pub-419, TensorRT-LLM TTFT on Ampere, x5.094 -> x5.103:
#: the 8-bit level refits with the MI300X TP8 cases slower); tightened the decode medians
#: (engine 14.1 -> 12.7 %, GPU family 24.6 -> 21.6 %, model kind 12.0 -> 11.8 %, weight format
#: 27.4 -> 24.9 %: the 41 vLLM MI300X TP8 decode cases, predicted 0.66-0.77x with the family or
#: the format left out, come up).
#: Then TTFT's fixed times at a speed of their own, fitted to the TTFTs' log figures (METHOD.md
#: "TTFT's fixed times, a speed of their own", 2026-12-03; sum 270.1 -> 253.4, beyond 2x 56 ->
#: 50): a trade, recorded as one. Raised gpu_family/decode 0.216 -> 0.232 (the 35 vLLM MI300X
#: dense decode cases x0.83 -> x0.81 and the 13 vLLM Hopper ones x0.88 -> x0.96 with the
#: family left out: the vLLM levels refit without the TTFT compromise) and model_kind/ttft
#: 0.26 -> 0.305 and its worst 6.44 -> 6.46 (vLLM's MLA TTFTs x0.70 -> x0.64 and TensorRT-LLM's
#: dense ones 22 -> 25 % with their kind left out), gpu_family/throughput worst 3.52 -> 3.54,
#: model_kind/throughput worst 4.51 -> 4.53, weight_class/throughput worst 3.55 -> 3.56;
#: tightened the rest (TTFT engine 27.8 -> 17.8 %, GPU family 31.3 -> 26.2 %, weight format
#: 34.6 -> 28.5 %: TensorRT-LLM's dense TTFTs 30 -> 16 % with the engine left out, GPUStack's
#: vLLM Qwen3-8B TTFTs on H100 x0.34 -> x0.76 with the family left out).
#: Then the closed loop's prompts waiting for the prefill ahead of them, M/D/1 (METHOD.md
#: "A closed loop's prompts queue for the prefill", 2026-12-03; sum 253.4 -> 248.1, beyond
#: 2x 50 -> 49): raised engine/ttft 0.178 -> 0.192 (the refit speeds vLLM's TTFT level up a
#: little: GPUStack's and dstack's vLLM TTFTs pub-005, 018, 248, x0.82-0.95 -> x0.74-0.83
#: with the engine left out), model_kind/ttft 0.305 -> 0.309, model_kind/decode 0.122 ->
#: 0.123, engine/throughput worst 3.91 -> 3.94 (pub-026, 3.909 -> 3.936), weight_class/ttft
#: worst 4.33 -> 4.5 (pub-634, NIM at 100 users, the backlog beyond the batch the engine
#: holds, 4.329 -> 4.494) and weight_class/throughput worst 3.56 -> 3.57 (pub-026); tightened
#: the rest (TTFT GPU family 26.2 -> 23.8 %, weight format 28.5 -> 24.6 %: NVIDIA NIM's
#: Llama-3.3-70B TTFTs at 5 to 50 users, pub-626, 629, 632, x0.56-0.84 -> x0.92-1.11 with the
#: shipped profiles).
#: Then the weights read and the matrix compute overlapping only in part, ``(m^3 + c^3)^(1/3)``
#: (METHOD.md "Memory and compute overlap only in part", 2026-12-03; sum 248.1 -> 244.9,
#: beyond 2x 49 -> 47): raised engine/decode 0.124 -> 0.135 (vLLM V1's MI300X dense decode
#: runs pub-531..540, x0.98 -> x0.96 with the engine left out, crossed the median: the other
#: engines' CDNA 3 levels refit a little faster), engine/ttft 0.192 -> 0.202 (GPUStack's vLLM
#: Qwen3-8B TTFTs on H100, pub-041..050, x0.75 -> x0.70 with the engine left out), gpu_family/ttft
#: 0.238 -> 0.243, gpu_family/decode worst 2.38 -> 2.39 (2.380 -> 2.384, the refit) and the
#: throughput worst factors of pub-026 (GPUStack's vLLM DeepSeek-R1 on 8
#: H200, 1,000 prompts of 127/4 tokens at once, x3.67 high even in-sample: the refit's faster
#: levels) engine 3.94 -> 4.06, gpu_family 3.54 -> 3.69, model_kind 4.53 -> 4.59,
#: weight_class 3.57 -> 3.74; tightened the rest (model kind TTFT 30.9 -> 27.1 %: the
#: batch-1 TTFTs of 128-token prompts, TensorRT-LLM on A100, x0.47-0.71 -> x0.52-0.79 with
#: the model kind left out; GPU family throughput 20.2 -> 19.7 %).
#: Then the reference's compute efficiency picked by each fold among 0.4 / 0.5 / 0.6 (METHOD.md
#: "The reference's compute efficiency, fitted", 2026-12-03; sum 244.9 -> 234.2, beyond 2x 47
#: -> 42): raised model_kind/decode 0.122 -> 0.16 (the MLA decode level 13.7 -> 19.7 %) and
#: its worst 2.81 -> 3.09, gpu_family/ttft 0.243 -> 0.267 (the Ada level 53.6 -> 64.9 %:
#: TensorRT-LLM's L40S batch-1 TTFTs pub-405..414, predicted too long with Ada left out,
#: x1.1-2.1 -> x1.25-2.4), weight_class/ttft 0.244 -> 0.254
#: and its worst 4.5 -> 4.62, engine/decode worst 1.86 -> 2.15 and gpu_family/decode worst
#: 2.39 -> 2.49 (the refit); tightened the rest (decode GPU family 22.3 -> 19.2 %, weight
#: format 23.5 -> 19.2 %; TTFT model kind 27.1 -> 20.9 %; every throughput median).
#: Then Falcon's one all-reduce per layer (METHOD.md "Falcon's one all-reduce per layer",
#: 2026-12-04; the engines' own code, not a constant chosen on these figures): a trade, kept
#: as the precedent above keeps a stated setting. Falcon-180B's 12 cases in-sample: TensorRT-LLM
#: on 8 L40S throughput x0.61-0.85 -> x0.97-1.13, TTFT x1.12 / x1.45 -> x0.76 / x0.90; in-sample
#: medians 12.1 / 11.1 / 13.7 -> 11.9 / 11.1 / 13.1 %. The sum of the twelve medians rose 234.2
#: -> 238.6 (beyond 2x 42, unchanged), all of it by the refit of the levels the Falcon cases
#: share: raised gpu_family/ttft 0.267 -> 0.304 (the Hopper level 18.7 -> 24.0 %: with Hopper
#: left out the TensorRT-LLM TTFT level no longer carries the L40S cases' too-slow all-reduces,
#: so NIM's and TensorRT-LLM's Hopper TTFTs, pub-626..643 and case-100..119, move x1.0-1.26 ->
#: x1.06-1.36), gpu_family/decode 0.193 -> 0.212 (Hopper decode 26.0 -> 26.9 %, no decode case
#: changed) and its worst 2.49 -> 2.5, gpu_family/throughput 0.183 -> 0.186, engine/throughput
#: 0.212 -> 0.213, model_kind/throughput worst 4.59 -> 4.6 (pub-026), weight_class/decode
#: 0.193 -> 0.195, weight_class/throughput 0.182 -> 0.184, engine/decode worst 2.15 -> 2.38
#: (pub-215, vLLM AWQ TPOT in a 1,000-request burst, x0.47 -> x0.42: the vLLM fold now picks
#: the 0.6 reference), engine/ttft worst 4.08 -> 4.12 (pub-204); tightened the rest (engine
#: decode 13.1 -> 12.1 %, TTFT 20.2 -> 19.4 %; model kind throughput 16.2 -> 15.9 %).
#: Then the grouped GEMM's half point at the GPU's ridge for natively computed formats
#: (configuration.grouped_gemm_ridge_rows instead of the fitted 256 rows; METHOD.md "The grouped
#: GEMM's half point at the ridge", 2026-12-04; sum 238.6 -> 235.9, beyond 2x 42 -> 35, coverage
#: 78.3 -> 78.9 %): raised engine/decode 0.122 -> 0.133 (TensorRT-LLM decode level 27.5 -> 29.7 %,
#: SGLang 18.2 -> 20.2 %), model_kind/decode 0.159 -> 0.167 (MLA 19.8 -> 22.7 %),
#: model_kind/throughput 0.16 -> 0.167 (the dense level, predicted from the MoE and MLA levels
#: only, 14.2 -> 16.0 %), weight_class/decode 0.195 -> 0.207 (8-bit 18.2 -> 19.8 %),
#: weight_class/ttft 0.254 -> 0.281 (8-bit 26.7 -> 28.9 %) and the worst factors
#: engine/throughput 3.9 -> 3.98 and weight_class/throughput 3.58 -> 3.96 (pub-026, vLLM
#: DeepSeek-R1 on 8 H200, 127/4 prompts at once, predicted faster: H200's ridge for FP8 is 206
#: rows), engine/ttft 4.12 -> 4.15 (pub-204), gpu_family/decode 2.5 -> 2.57 (pub-215),
#: weight_class/ttft 4.59 -> 4.68 (pub-634); tightened the rest (GPU family TTFT 30.3 -> 25.9 %,
#: decode 21.1 -> 19.5 %, throughput 18.5 -> 17.8 %; engine throughput 21.2 -> 20.0 %).
RATCHET = {
    "engine": {"decode": (0.133, 2.37), "throughput": (0.201, 3.98), "ttft": (0.195, 4.15)},
    "gpu_family": {"decode": (0.196, 2.57), "throughput": (0.178, 3.39), "ttft": (0.259, 6.28)},
    "model_kind": {"decode": (0.167, 2.98), "throughput": (0.167, 4.59), "ttft": (0.203, 5.4)},
    "weight_class": {"decode": (0.207, 2.62), "throughput": (0.181, 3.96), "ttft": (0.281, 4.68)},
}

#: Cases off by more than 2x in at least one left-out fold (``aisizer calibration`` lists them;
#: target: none). 172 of 642 on 2026-12-02 (5cbf3c2). May only fall; whoever lowers it
#: lowers this, and a rise is listed here with the reason. 172 -> 185 with the 44 GB200 and
#: RTX PRO 6000 TensorRT-LLM cases (pub-581..624): 12 of them (GB200 DeepSeek-R1, gpt-oss,
#: Qwen3 30B/235B, all predicted high) beyond 2x in the engine or weight-format fold, and one
#: older case moved past 2x by the refit. 185 -> 182 with the 16 Gaudi 3 cases (none of them
#: beyond 2x): pub-061, 083, 591 and 617 went beyond with the refit, case-006, 009, 011, 032,
#: 166, 176 and pub-162 came back. 182 -> 134 with the weight-only MoE kernels' tile (METHOD.md,
#: 2026-12-02): among others the vLLM gpt-oss runs on A100 and H100 came back within 2x.
#: 134 -> 139 with the 21 NIM cases on 2 x H100 (pub-625..645): three of their TTFTs (25, 50
#: and 100 users) predicted 0.19-0.46x with the 8-bit class left out (pub-634, 100 users, 8.0 s
#: of queueing, also 0.37-0.56x in the other folds), and pub-309 and pub-337 moved by the refit.
#: 139 -> 141 with the 20 remaining perf-overview rows (pub-646..665): gpt-oss-20b on one B200 at
#: 1000/1000 and 1024/8192 and Qwen3 235B DEP4 on B200 at 1024/8192, predicted 2.2-2.5x high with
#: TensorRT-LLM left out (pub-649, 650, 660); pub-266 moved past 2x, pub-275 and 309 came back.
#: 141 -> 125 with "All requests at once" from the mechanism (METHOD.md, 2026-12-02): 27 came
#: back (among them pub-037, pub-077, pub-214 and the TensorRT-LLM trtllm-bench bursts pub-097,
#: 100, 110, 581-617), 11 went beyond (pub-062, 108, 225, 243, 244, 252, 263, 265, 309, 329,
#: 341).
#: 125 -> 128 with MLA decoded absorbed: pub-220 and pub-221 (vLLM DeepSeek-R1 on MI300X,
#: x1.99 -> x2.05 and x0.507 -> x0.495 with the weight format left out) and pub-139 (Llama 4
#: Maverick, no MLA, x1.99 -> x2.005 with the refit), all at the 2x line.
#: 128 -> 134 with the weight-only MoE kernels named per engine: TensorRT-LLM back to its
#: 256-row floor takes its Hopper gpt-oss cases (case-079, pub-084..087, 089, 647, 651) to
#: 0.26-0.52x with a group left out (its shipped factors, fitted with that floor, size them at
#: 0.6-1.9x); some 8- and 16-bit TensorRT-LLM cases moved past 2x with the refit and vLLM
#: and TensorRT-LLM cases came back.
#: 134 -> 133 with the AMD GPUs' sustained bandwidth.
#: -> 112 with TTFT in waves and the offline harness (TTFT cases beyond 2x per fold, engine /
#: GPU family / model kind / weight format, measured on 0476902:
#: 26 / 25 / 29 / 18 -> 10 / 16 / 15 / 24).
#: 112 -> 120 with the 33 GH200 cases (pub-666..698, predicted low; Mixtral 8x7B the
#: furthest) and the older cases the refit moved.
#: 120 -> 123 with SGLang's MXFP4 MoE before Hopper skipped (pub-304, 317, x16 and x4.6, gone):
#: their pull on the SGLang and FP4-weight-only levels had held the vLLM gpt-oss runs on H100
#: (pub-004, 013, 017, predicted high, the dangerous side) just under 2x: now x2.09-2.17; with
#: pub-064, 228, 253 past 2x and pub-059, 244 back.
#: 123 -> 124 with Poisson arrivals queueing: case-109 (TensorRT-LLM 0.5 batch-1 TTFT, physics
#: unchanged) moved by the refit from x0.501 to x0.499 with 8-bit left out.
#: 124 -> 102 with MXFP4 at the FP8 rate on Blackwell: the TensorRT-LLM gpt-oss B200/GB200
#: perf-overview rows came back (x2.1-2.9 -> x1.3-1.7 with a group left out); 23 came back in
#: all (also TensorRT-LLM's Hopper gpt-oss case-079, pub-084, 647, 651, low, lifted by the
#: refit), pub-335 went beyond with the refit.
#: 102 -> 104 with the prompt's attention in the KV cache's arithmetic (METHOD.md, 2026-12-02):
#: pub-031 (vLLM DeepSeek-R1 TTFT at 32k prompts, now predicted slower, the safe side) to
#: x2.25 with the GPU family left out, pub-244 and pub-391 to x2.00 and x0.50 by the refit;
#: pub-063 (TensorRT-LLM Qwen3-32B-FP8, 32k prompts, predicted high) back from x2.12.
#: 104 -> 96 with vLLM V1's max_num_seqs by GPU memory (H100 burst TPOTs came back).
#: 96 -> 102 with the 29 perf-overview 1024/1024 rows (pub-699..727): four of them beyond 2x with
#: TensorRT-LLM left out, all predicted high (NVFP4 Qwen3 235B DEP4 on B200 and GB200 x2.28 and
#: x2.33, Qwen3 30B on B200 and GB200 x2.01 and x2.47: the same cells at 1000/1000 are
#: x2.2-2.8), one low (gpt-oss-120b TP1 on H200, pub-704, x0.45; its 1000/1000 twin pub-647
#: is x0.51); pub-347 (x2.006) and pub-698 (x0.499) moved past the line by the refit, pub-225
#: came back from x2.012.
#: 102 -> 100 with the request counts of pub-443..580 set: pub-347 and pub-698 came back
#: (refit).
#: 100 -> 99 with the request counts of case-001..062 and case-087..098 set: pub-337 came back.
#: 99 -> 98 with the request counts of case-063..078 set: case-071 (x2.13), pub-256 and
#: pub-266 came back, case-078 (x0.48, low) and pub-347 (x2.005, the refit) went beyond.
#: 98 -> 93 with block-scaled FP8 GEMMs and a prompt's chunk in a decode step (METHOD.md,
#: 2026-12-02): among others the dstack DeepSeek-R1 runs (TTFT pub-248, offline pub-264).
#: 93 -> 97 with the six GPTQ INT8 cases (pub-200..205, RTX 4090 bursts): pub-200, 201, 203 and
#: 204 beyond 2x (TTFT x5 high, throughput x0.49-0.50 with the model kind left out), pub-005
#: and pub-084 moved past 2x by the refit, pub-723 and pub-724 came back.
#: 97 -> 89 with the elementwise kernels between the GEMMs (METHOD.md, "What does not run at
#: the FP8 rate", 2026-12-02): 14 came back (among them pub-408, pub-410, pub-375, pub-066,
#: pub-264, pub-200, pub-203), 6 went just past 2x (pub-033 x2.11, pub-233 x2.11, pub-236,
#: pub-406, pub-669, pub-695 x2.02-2.04: the L40S FP8 TTFT pub-406 now predicted slow, the
#: others moved by the refit).
#: 89 -> 85 with the host work per step (the reference's 5 us per request where the loop is
#: Python): pub-608, 719, 725 (Qwen3 NVFP4 on GB200, TensorRT-LLM 1.x at 1,600-2,800
#: requests, x2.03-2.38 -> x1.90-1.99), pub-328 and pub-695 (at x0.50) came back; pub-005
#: (x0.50) went just past the line.
#: 85 -> 76 with gpt-oss's kernels as engine-profile data (METHOD.md, 2026-12-02): 19 came back
#: (TensorRT-LLM's Hopper gpt-oss runs case-079, pub-085, 089, 647, 651, 704 at the TRITON
#: backend's 64 rows; vLLM's gpt-oss on A100 pub-307, 310, 312, 315, 320, 321 with the Triton
#: attention's bound; pub-005, 018, 194, 197, 341, 406, 669), 10 went just past 2x: pub-009
#: (trtllm-serve 1.2.0rc1 gpt-oss-20b on H100, whose default MoE backend was still CUTLASS,
#: x2.5 high with the weight format left out) and, moved by the refit at x2.0-2.2, pub-013,
#: 032, 244, 248, 346, 347, 356, 608, 695.
#: 76 -> 74 with the MoE's permute and combine (METHOD.md, 2026-12-03): pub-248, pub-608 and
#: pub-695 came back; pub-194 (vLLM Qwen3-8B on an RTX 4090, x0.502 -> x0.499 with the GPU
#: family left out, the refit) went just past the line.
#: 74 -> 72 with the expert GEMMs' reduction length (METHOD.md "The expert's shape",
#: 2026-12-03): pub-033, 236, 242, 244, 278 came back; pub-328, 329, 341 went past 2x.
#: 72 -> 70 with the trtllm-bench runs whose request count is not stated skipped: pub-109 and
#: pub-604 (Qwen3-235B DEP4 at 1000/1000 on B200 and GB200, predicted as saturation) are gone,
#: pub-691 came back, pub-236 (vLLM DeepSeek-R1 on MI300X, the refit) went past 2x.
#: 70 -> 64 with a fixed time per touched expert of a MoE layer (METHOD.md "A touched
#: expert's fixed cost"): pub-032, 233, 234, 236, 237 (DeepSeek-R1 on SGLang and vLLM, x2.02-2.08
#: -> x1.92-1.99) and pub-629 (x2.004 -> x1.996) came back; none went past 2x.
#: 64 -> 57 with NCCL's per-step ring latency over PCIe and 28/35 of the bus bandwidth beyond
#: 4 PCIe GPUs (METHOD.md "PCIe all-reduces"): tensor-parallel A100 PCIe, L40S and RTX PRO 6000
#: throughput runs predicted less high.
#: 57 -> 56 with the xGMI floor; 56 -> 50 with TTFT's fixed times at a speed of their own
#: (METHOD.md "TTFT's fixed times, a speed of their own"): GPUStack's vLLM Qwen3-8B TTFTs on
#: H100 (pub-041, 044, 047, 050, x3.04-3.78 too low with the model kind left out), pub-420
#: (TensorRT-LLM Mixtral TTFT on Ampere, x2.22) and case-109 (x2.07) came back; none went
#: past 2x.
#: 50 -> 49 with the closed loop's prompt queue: pub-632 (NIM TTFT at 50 users, x2.12 low)
#: and case-168 came back, pub-248 (dstack's vLLM DeepSeek-R1 TTFT on H200 at 32 users, x2.06
#: low with the weight format left out) went past.
#: 49 -> 47 with the weights read and the compute overlapping only in part: pub-425
#: (TensorRT-LLM Falcon-180B batch-1 TTFT on 8 A100, 128 tokens, x0.47 -> x0.52 low), pub-260,
#: pub-347 and pub-404 came back; case-168 (llama.cpp's prompt rate on an RTX 4090) and pub-264
#: (SGLang DeepSeek-R1 offline on MI300X) went just past the line by the refit.
#: 47 -> 42 with the reference's compute efficiency fitted in each fold: case-078, case-101,
#: case-168, pub-013, pub-060, pub-194, pub-248 and pub-264 came back; pub-066 (TensorRT-LLM
#: Qwen3-32B FP8 on H100, 128/4), pub-277 and pub-278 (SGLang gpt-oss-120b on 8 B200) went
#: past at x2.0-2.1. 42 -> 42 with Falcon's one all-reduce per layer.
#: 42 -> 35 with the grouped GEMM's half point at the GPU's ridge: the MoE runs on A100 came
#: back (vLLM and SGLang Qwen3-235B and GLM-4.6, pub-328, 329, 330, 335, 340, 341; TensorRT-LLM
#: 0.9 Mixtral pub-389, 390) and pub-199; pub-264 (SGLang DeepSeek-R1 offline on MI300X) and
#: pub-705 (TensorRT-LLM on B200) went past by the refit.
BEYOND_TWO_RATCHET = 35


@pytest.fixture(scope="module")
def fresh():
    return cross_validation(load_catalog(include_user=False))


@pytest.fixture(scope="module")
def shipped():
    return json.loads(paths.cross_validation_file().read_text(encoding="utf-8"))


def test_the_shipped_residuals_are_current(fresh, shipped):
    """resources/calibration/cross_validation.json is what the engine computes now from the
    shipped cases and catalog; if not, run `make cross-validation` and commit the file."""
    assert shipped["case_files"] == fresh["case_files"]
    assert shipped["skipped"] == fresh["skipped"]
    assert shipped["method"] == fresh["method"]
    assert len(shipped["residuals"]) == len(fresh["residuals"])
    for old, new in zip(shipped["residuals"], fresh["residuals"], strict=True):
        assert old["case_id"] == new["case_id"] and old["regime"] == new["regime"]
        for key in ("measured", "fitted"):
            assert old[key] == pytest.approx(new[key], rel=1e-4), (old["case_id"], key)
        for dimension in DIMENSIONS:
            assert old["left_out"][dimension] == pytest.approx(
                new["left_out"][dimension], rel=1e-4), (old["case_id"], dimension)


def test_every_case_is_predicted_or_skipped_with_its_reason(fresh):
    raws = read_cases()
    cases, skipped = load_cases(raws, load_catalog(include_user=False))
    assert len(cases) + len(skipped) == len(raws)
    assert len({raw["id"] for raw in raws}) == len(raws), "case ids are unique across files"
    assert {r["case_id"] for r in fresh["residuals"]} == {c.id for c in cases}
    assert all(s["reason"] for s in fresh["skipped"])
    assert all(raw.get("source") for raw in raws)
    assert len(cases) >= 110


def test_every_dimension_and_its_levels_are_left_out(fresh):
    for record in fresh["residuals"]:
        assert set(record["left_out"]) == set(DIMENSIONS)
    levels = {(r["dimension"], r["level"]) for r in fresh["table"]}
    for needed in [("engine", "vllm"), ("gpu_family", "blackwell"), ("model_kind", "MoE"),
                   ("weight_class", "FP4")]:
        assert needed in levels


def all_rows(doc):
    return {(r["dimension"], r["metric_group"]): r for r in doc["table"] if r["level"] == "all"}


@pytest.mark.parametrize("dimension", DIMENSIONS)
@pytest.mark.parametrize("metric", sorted(TARGETS))
def test_cross_validated_median_error_holds_the_ratchet(fresh, dimension, metric):
    """Median |error| with ``dimension``'s level left out; target TARGETS[metric]."""
    row = all_rows(fresh)[(dimension, metric)]
    limit, _ = RATCHET[dimension][metric]
    assert row["median_abs_error"] <= limit, (row, "target", TARGETS[metric])


@pytest.mark.parametrize("dimension", DIMENSIONS)
@pytest.mark.parametrize("metric", sorted(TARGETS))
def test_no_left_out_case_is_further_off_than_the_ratchet(fresh, dimension, metric):
    """Worst factor with ``dimension``'s level left out; target WORST_TARGET (2x)."""
    row = all_rows(fresh)[(dimension, metric)]
    _, limit = RATCHET[dimension][metric]
    assert row["worst_factor"] <= limit, (row, "target", WORST_TARGET)


def test_the_records_read_back_as_residuals(shipped):
    residuals = [residual_from_record(r) for r in shipped["residuals"]]
    assert all(r.measured > 0 and r.fitted > 0 for r in residuals)
    assert all(r.ratio(d) > 0 for r in residuals for d in DIMENSIONS)


def test_cases_off_by_more_than_two_x_do_not_grow(fresh):
    """Target WORST_TARGET: no case off by more than 2x in any fold; the ratchet holds today's
    count."""
    off = beyond([residual_from_record(r) for r in fresh["residuals"]], WORST_TARGET)
    assert len(off) <= BEYOND_TWO_RATCHET, [r.case_id for r in off[:20]]
