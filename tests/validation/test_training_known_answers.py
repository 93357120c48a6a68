"""Published figures for training, RAG and CPU inference against the engine's formulas.

Each case names its source and its tolerance. Where a publication gives the number outright
(ZeRO's table, PEFT's parameter count, FAISS's bytes per vector) the engine must match it to
1 % or exactly; where the published figure includes effects the formula leaves out (Llama 3's
GPU-hours include downtime and the long-context phases; llama.cpp's measured speed depends on
NUMA placement) the tolerance says how far apart they may be and why.
"""

from __future__ import annotations

import math

import pytest

from app.catalog.loader import load_catalog
from app.engine import cpu_inference as cpu
from app.engine import rag
from app.engine import training as tr
from app.engine.memory import parameter_counts, weights_bytes

GB = 1e9
GIB = 2**30
DAY = 86_400.0


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(include_user=False)


# --------------------------------------------------------------------------- model states


@pytest.mark.parametrize(("stage", "published_gb"), [(0, 120), (1, 31.4), (2, 16.6), (3, 1.9)])
def test_zero_paper_table(stage, published_gb):
    """Rajbhandari et al., ZeRO (SC20, arXiv:1910.02054), Figure 1 / section 5: a 7.5 B
    parameter model on 64 GPUs with K = 12 needs 120 / 31.4 / 16.6 / 1.9 GB per GPU for
    baseline data parallelism and ZeRO stages 1, 2, 3 (the paper rounds: 1.875 -> 1.9)."""
    states = tr.zero_model_states(7.5e9, 64, stage, 2, 2, tr.optimizer_bytes_per_param("adamw"))
    tolerance = 0.01 if stage < 3 else 0.015  # 1.875 printed as 1.9
    assert states.total / GB == pytest.approx(published_gb, rel=tolerance)


def test_sixteen_bytes_per_parameter_mixed_precision_adamw():
    """ZeRO paper section 3.1: fp16 weights and gradients (2 + 2) and 12 bytes of Adam state
    (fp32 master copy, momentum, variance) = 16 bytes per parameter."""
    assert tr.optimizer_bytes_per_param("adamw") == 12
    assert tr.model_state_bytes_per_param("adamw") == 16


def test_eighteen_bytes_per_parameter_hugging_face():
    """Hugging Face Transformers, "Model training anatomy": "A typical model trained in mixed
    precision with AdamW requires 18 bytes per model parameter" = weights 6 (fp32 + 16-bit
    copy) + optimizer 8 + gradients 4 (fp32). The engine's split: 2 + 4 + 12."""
    assert tr.model_state_bytes_per_param("adamw", fp32_gradients=True) == 18
    # the guide's other optimisers: 8-bit AdamW keeps 2 bytes of moments, SGD/Lion/Adafactor 4
    assert tr.model_state_bytes_per_param("adamw-8bit", True) == 18 - 8 + 2
    assert tr.model_state_bytes_per_param("sgd", True) == 18 - 8 + 4


def test_checkpoint_of_70b_is_782_gib():
    """HARDWARE.md 4.2: FP32 master weights, m and v = 12 B/param; 70 B x 12 B = 840 GB =
    782 GiB ("782 GB for a 70B model", prefersystems.com); with BF16 weights 14 B/param."""
    without_bf16 = tr.checkpoint_bytes(70e9, "adamw", bytes_per_param_adamw=12)
    assert without_bf16 / GIB == pytest.approx(782, abs=0.5)
    assert tr.checkpoint_bytes(70e9, "adamw") == pytest.approx(70e9 * 14)


def test_peft_lora_parameter_count_llama_2_7b(catalog):
    """Hugging Face PEFT, LoraConfig(r=8, target_modules=["q_proj", "v_proj"]) on
    Llama-2-7B: "trainable params: 4,194,304 || all params: 6,742,609,920" (the all-params
    figure is the 6,738,415,616 base plus the adapters)."""
    model = catalog.model("llama-2-7b")
    adapters = tr.lora_params(model, 8, "qv")
    assert adapters == 4_194_304
    assert parameter_counts(model).total + adapters == pytest.approx(6_742_609_920, rel=1e-3)


# --------------------------------------------------------------------------- activations


@pytest.mark.parametrize(("name", "s", "h", "a", "saving"), [
    ("GPT-3 175B", 2048, 12288, 96, 0.70),
    ("MT-NLG 530B", 2048, 20480, 128, 0.65),
])
def test_korthikanti_selective_recompute_saving(name, s, h, a, saving):
    """Korthikanti et al. 2022, section 4.2: selective recomputation saves 70 % (GPT-3) and
    65 % (MT-NLG) of the activation memory: 1 - 34 / (34 + 5as/h)."""
    full = tr.activation_bytes_per_layer(s, 1, h, a, t=8, sequence_parallel=True)
    selective = tr.activation_bytes_per_layer(s, 1, h, a, t=8, sequence_parallel=True,
                                              recompute="selective")
    assert 1 - selective / full == pytest.approx(saving, abs=0.005)


def test_korthikanti_table_2_formulas():
    """Korthikanti et al. Table 2 for GPT-3 175B (s = 2048, b = 1, h = 12288, a = 96,
    t = 8): no parallelism sbh(34 + 5as/h) = 114 sbh; tensor parallel
    sbh(10 + 24/t + 5as/(ht)) = 23 sbh; with sequence parallelism sbh/t (34 + 5as/h) =
    14.25 sbh; selective + SP 34 sbh/t = 4.25 sbh; full recomputation 2 sbh."""
    s, b, h, a, t = 2048, 1, 12288, 96, 8
    sbh = s * b * h
    assert tr.activation_bytes_per_layer(s, b, h, a) == pytest.approx(114 * sbh)
    assert tr.activation_bytes_per_layer(s, b, h, a, t) == pytest.approx(23 * sbh)
    assert tr.activation_bytes_per_layer(s, b, h, a, t, True) == pytest.approx(14.25 * sbh)
    assert tr.activation_bytes_per_layer(s, b, h, a, t, True, "selective") == \
        pytest.approx(4.25 * sbh)
    assert tr.activation_bytes_per_layer(s, b, h, a, t, True, "full") == pytest.approx(2 * sbh)
    # 114 sbh for one GPT-3 layer at b = 1: 2.87 GB
    assert tr.activation_bytes_per_layer(s, b, h, a) / GB == pytest.approx(2.869, abs=0.001)


def test_korthikanti_pipeline_first_stage_holds_all_layers():
    """Korthikanti et al. eq. 5: with 1F1B the first stage stores L layers' worth of
    activations whatever p (p micro-batches in flight x L/p layers)."""
    per_layer = tr.activation_bytes_per_layer(2048, 1, 12288, 96, 8, True, "selective")
    for p in (1, 2, 4, 8, 16):
        stage = tr.activation_bytes_per_gpu(per_layer, 96, p, micro_batches=64, output_layer=0)
        assert stage == pytest.approx(per_layer * 96)


# --------------------------------------------------------------------------- time to train


LLAMA3_FLOPS = 6 * 405e9 * 15.6e12  # the paper's 3.8e25 FLOPs


def test_llama3_405b_compute_matches_the_paper():
    """Dubey et al. 2024 (Llama 3): 405 B parameters on 15.6 T tokens, 3.8 x 10^25 FLOPs."""
    flops = tr.training_flops_per_token(405e9) * 15.6e12
    assert flops == LLAMA3_FLOPS
    assert flops / 3.8e25 == pytest.approx(1.0, rel=0.01)


@pytest.mark.parametrize("mfu", [0.38, 0.40, 0.43])
def test_llama3_405b_time_on_16384_h100(mfu, catalog):
    """Llama 3 405B on 16,384 H100 (BF16 peak 989.4 TFLOP/s) at the reported 38-43 % MFU
    (HARDWARE.md 5.4: 380-430 TFLOP/s per GPU).

    Predicted: 63 days (43 %) to 71 days (38 %) of pure compute, 24.8-28.0 M GPU-hours.
    Published: the Llama 3.1 model card gives 30.84 M H100 GPU-hours for the 405B model
    (78 days at 16,384 GPUs), which also counts the phases at lower scale and with long
    contexts, restarts and downtime; so the prediction must be below it, by at most 25 %.
    The "54 days" in Meta's report is the snapshot window in which 419 unexpected
    interruptions were counted, not the length of training: it is a lower bound the
    prediction must exceed (the run lasted longer than that window at full scale).
    """
    h100 = catalog.gpu("h100-sxm")
    seconds = tr.time_to_train_s(LLAMA3_FLOPS, 16_384, h100.peak_flops("bf16"), mfu)
    gpu_hours = seconds * 16_384 / 3600
    assert 54 < seconds / DAY < 78
    assert 0.75 * 30.84e6 <= gpu_hours <= 30.84e6
    if mfu == 0.40:
        assert seconds / DAY == pytest.approx(67.7, abs=0.1)


def test_llama3_mtbf_one_interruption_every_three_hours(catalog):
    """Llama 3: 419 unexpected interruptions in 54 days on 16,384 H100, "about one every
    3 hours"; the per-GPU default is derived from it and must give that back."""
    mtbf = tr.cluster_mtbf_s(catalog.default("gpu_mtbf_hours"), 16_384)
    assert mtbf / 3600 == pytest.approx(54 * 24 / 419, rel=0.001)
    assert mtbf / 3600 == pytest.approx(3.09, abs=0.01)


def test_young_daly_interval():
    """Young (1974): tau = sqrt(2 delta M). A 100 s save with a 3 h MTBF: 1,470 s."""
    assert tr.young_daly_interval_s(100, 3 * 3600) == pytest.approx(math.sqrt(2 * 100 * 10800))
    assert tr.young_daly_interval_s(100, 3 * 3600) == pytest.approx(1469.7, abs=0.1)


def test_llama3_layout_bubble_is_below_a_quarter(catalog):
    """Llama 3 405B's layout (TP 8, PP 16, DP 128 on 16,384 GPUs, 16 M-token batches of
    8,192-token sequences = 16 micro-batches per replica) with the interleaved schedule of
    4 chunks per GPU idles (p - 1)/(v m) = 15/64 = 23 %."""
    assert tr.pipeline_bubble(16, 16, 4) == pytest.approx(15 / 64)


def test_search_finds_llama3_like_layout_on_16384_h100(catalog):
    """Pre-training Llama-3.1-405B on at most 16,384 H100 within 90 days: the search picks
    Meta's shape (8-way tensor, 16-way pipeline, 128-way data parallelism), and its time is
    the 6ND figure within 3 % (the catalog counts 405.85 B parameters, and the part of the
    gradient all-reduce the last backward pass cannot hide adds about 1 %)."""
    from app.api import load_scenario, size

    result = size(load_scenario({
        "model": "llama-3.1-405b", "workload": {"kind": "pretraining"},
        "hardware": {"gpu": "h100-sxm"},
        "training": {"sequence_length": 8192, "tokens_total": 15.6e12, "target_days": 90,
                     "max_gpus": 16384}}), catalog)
    t = result.training
    assert t.gpus_total == 16_384 and t.fits
    assert (t.tensor_parallel, t.pipeline_parallel, t.data_parallel) == (8, 16, 128)
    assert t.time_to_train_s / DAY == pytest.approx(67.7, rel=0.03)


# --------------------------------------------------------------------------- RAG


def test_faiss_hnsw_bytes_per_vector():
    """FAISS wiki, "Guidelines to choose an index": HNSW memory is (d * 4 + M * 2 * 4) bytes
    per vector. d = 768, M = 16: 3,200 B; one million vectors 3.2 GB."""
    assert rag.hnsw_bytes(1, 768, 4, 16) == 3200
    assert rag.hnsw_bytes(1e6, 768, 4, 16) / GB == pytest.approx(3.2)


def test_ivf_pq_bytes():
    """IVF-PQ with 64 one-byte sub-quantisers: 64 code bytes + an 8-byte id per vector, plus
    the coarse centroids and 256 PQ centroids per sub-space (FAISS)."""
    size = rag.ivf_pq_bytes(1e6, 768, 64, 4096)
    assert size == pytest.approx(1e6 * 72 + 4096 * 768 * 4 + 256 * 768 * 4)


def test_chunking_by_hand():
    """A 6,000-token document in 512-token chunks with 64 tokens of overlap: a stride of 448,
    ceil((6000 - 64) / 448) = 14 chunks, 6,000 + 13 x 64 = 6,832 tokens embedded."""
    corpus = rag.Corpus(1, 10, 600, 512, 64)
    assert corpus.chunks == 14
    assert corpus.tokens_embedded == 6832


# --------------------------------------------------------------------------- CPU


@pytest.mark.parametrize(("cpu_id", "gb_s"), [
    ("epyc-9654", 460.8), ("epyc-9754", 460.8), ("epyc-9965", 576.0), ("xeon-6980p", 614.4),
    ("xeon-6980p-mrdimm", 844.8), ("xeon-8592plus", 358.4)])
def test_cpu_memory_bandwidth(catalog, cpu_id, gb_s):
    """Channels x MT/s x 8 B: Genoa 12 x DDR5-4800 = 460.8 GB/s per socket (AMD; Tom's
    Hardware), Granite Rapids 12 x MRDIMM-8800 = 844.8 GB/s, Emerald Rapids 8 x 5600."""
    assert catalog.cpu(cpu_id).memory_bandwidth_bytes_per_s / GB == pytest.approx(gb_s)


def test_llama_cpp_dual_epyc_turin_70b_f16(catalog):
    """llama.cpp issue #11744: dual EPYC 9175F, 16 x DDR5-6400 (819.2 GB/s), Llama-3.1-70B
    in F16 generates 4.31 tokens/s with NUMA-aware loading (2.4 tokens/s without). The
    bandwidth model at the default 65 % efficiency must land within 20 % of 4.31 and above
    the unoptimised 2.4."""
    model = catalog.model("llama-3.1-70b")
    counts = parameter_counts(model)
    size = weights_bytes(counts, catalog.precision("fp16"))
    server = cpu.CpuServer("9175f-2s", "2 x EPYC 9175F", 2, 16 * 6400e6 * 8, 2 * 16 * 4.2e9 * 128,
                           catalog.default("cpu_bandwidth_efficiency"), 0.3, 1000, None)
    step = cpu.decode_step_s(server, size, 1.0, 0.0, 0, 1, counts.active)
    speed = 1 / step
    assert speed == pytest.approx(4.31, rel=0.20)
    assert speed > 2.4
