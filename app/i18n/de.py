"""German texts of the engine's sentences and the window, keyed by the English template.

The PDF report's own texts are in ``de_report.py`` (merged by ``app.i18n.CATALOGS``); a key
that both use (e.g. "Replicas", "met", "Time to first token") lives there only. Placeholders
keep their names and format specs; numbers are localised by ``app.i18n.tr``. Terms follow the
report: Replikat, Knoten, KV-Cache, "je Nutzer", "maximaler Kontext", Speicherklasse.
``tests/test_translations.py`` checks that every key the code uses has a German text here.
"""

MESSAGES: dict[str, str] = {
    # === engine: explanations (app/engine/narrative.py) =========================================
    "The model has {total:,.2f} billion parameters, {active:,.1f} billion of them active per "
    "token.":
        "Das Modell hat {total:,.2f} Milliarden Parameter, davon {active:,.1f} Milliarden aktiv "
        "je Token.",
    "The model has {total:,.2f} billion parameters.":
        "Das Modell hat {total:,.2f} Milliarden Parameter.",
    "In {fmt} the weights take {weights:,.1f} GB ({per_gpu:,.1f} GB on each of {gpus:,} GPUs).":
        "In {fmt} belegen die Gewichte {weights:,.1f} GB ({per_gpu:,.1f} GB auf jeder der {gpus:,} "
        "GPUs).",
    "Each token of context needs {kib:,.0f} KiB of KV cache in {fmt}; one sequence at "
    "{context:,} tokens needs {seq:,.2f} GiB.":
        "Jedes Token Kontext braucht {kib:,.0f} KiB KV-Cache in {fmt}; eine Sequenz mit "
        "{context:,} Tokens braucht {seq:,.2f} GiB.",
    "{users:,} sequences at peak context need {kv:,.1f} GB of KV cache ({avg:,.1f} GB at the "
    "average context).":
        "{users:,} Sequenzen bei maximalem Kontext brauchen {kv:,.1f} GB KV-Cache ({avg:,.1f} GB "
        "beim mittleren Kontext).",
    "One GPU must hold {need:,.1f} GB (weights, KV cache and {runtime:,.1f} GB runtime); the "
    "engine may use {usable:,.1f} GB of its {memory:,.1f} GB.":
        "Eine GPU muss {need:,.1f} GB aufnehmen (Gewichte, KV-Cache und {runtime:,.1f} GB "
        "Laufzeitumgebung); die Engine darf {usable:,.1f} GB ihrer {memory:,.1f} GB nutzen.",
    "It fits: up to {n:,} sequences at peak context.":
        "Es passt: bis zu {n:,} Sequenzen bei maximalem Kontext.",
    "It does not fit: the weights and runtime alone exceed the usable memory.":
        "Es passt nicht: schon Gewichte und Laufzeitumgebung überschreiten den nutzbaren "
        "Speicher.",
    "It does not fit: only {n:,} of {users:,} sequences fit at peak context.":
        "Es passt nicht: nur {n:,} von {users:,} Sequenzen passen bei maximalem Kontext.",
    "The rule of thumb 'parameters x 2 bytes' gives {gb:,.1f} GB ({gib:,.1f} GiB) for the whole "
    "model; it ignores the KV cache, which grows with users and context, and the runtime "
    "overhead.":
        "Die Faustregel 'Parameter x 2 Byte' ergibt {gb:,.1f} GB ({gib:,.1f} GiB) für das ganze "
        "Modell; sie übersieht den KV-Cache, der mit Nutzern und Kontext wächst, und den "
        "Speicherbedarf der Laufzeitumgebung.",
    "Naive figure: {bw:,.0f} GB/s / {size:,.1f} GB = {naive:,.1f} tokens/s. It assumes one GPU "
    "at full bandwidth reading only the weights; it ignores the KV cache every user adds, the "
    "efficiency real kernels reach, tensor-parallel communication and the other users sharing "
    "each step.":
        "Naive Zahl: {bw:,.0f} GB/s / {size:,.1f} GB = {naive:,.1f} Tokens/s. Sie nimmt eine GPU "
        "an, die mit voller Bandbreite nur die Gewichte liest; sie übersieht den KV-Cache, den "
        "jeder Nutzer hinzufügt, die Effizienz, die reale Kernels erreichen, die Kommunikation "
        "der Tensor-Parallelität und die anderen Nutzer, die sich jeden Schritt teilen.",
    "Batch job: per-user targets do not apply; Step 5 checks the completion window.":
        "Batch-Job: Ziele je Nutzer gelten nicht; Schritt 5 prüft das Zeitfenster für den "
        "Abschluss.",
    "One user alone: first token after {ttft:,.2f} s, then {speed:,.1f} tokens/s.":
        "Ein einzelner Nutzer: erstes Token nach {ttft:,.2f} s, danach {speed:,.1f} Tokens/s.",
    "At {users:,.0f} concurrent users: {speed:,.1f} tokens/s each, first token after {ttft:,.2f} "
    "s, {total:,.0f} output tokens/s in all (decode batch {batch:,.0f}).":
        "Bei {users:,.0f} gleichzeitigen Nutzern: je {speed:,.1f} Tokens/s, erstes Token nach "
        "{ttft:,.2f} s, insgesamt {total:,.0f} Ausgabe-Tokens/s (Decode-Batch {batch:,.0f}).",
    "Each decode step takes {itl:,.1f} ms: weights {w:,.1f} ms, KV cache {kv:,.1f} ms, compute "
    "{c:,.1f} ms, other users' prompts {pf:,.1f} ms, communication {comm:,.1f} ms, overhead "
    "{o:,.1f} ms ({bound}-bound).":
        "Jeder Decode-Schritt dauert {itl:,.1f} ms: Gewichte {w:,.1f} ms, KV-Cache {kv:,.1f} ms, "
        "Rechnen {c:,.1f} ms, Prompts anderer Nutzer {pf:,.1f} ms, Kommunikation {comm:,.1f} ms, "
        "Verwaltungsaufwand {o:,.1f} ms (begrenzt durch {bound}).",
    "At saturation a replica serves {total:,.0f} output tokens/s with {users:,.0f} users.":
        "Bei Sättigung liefert ein Replikat {total:,.0f} Ausgabe-Tokens/s mit {users:,.0f} "
        "Nutzern.",
    "Expected range: x{low:,.2f} to x{high:,.2f} of these figures (calibration residuals of the "
    "{engine} profile).":
        "Erwartete Bandbreite: x{low:,.2f} bis x{high:,.2f} dieser Werte (Restfehler der "
        "Kalibrierung des {engine}-Profils).",
    "{n:,} users per replica meet both targets with room for every one of them at the maximum "
    "context.":
        "{n:,} Nutzer je Replikat erreichen beide Ziele, mit Platz für jeden von ihnen beim "
        "maximalen Kontext.",
    "{load:,} replicas carry the load; with {redundancy} redundancy {replicas:,} replicas run on "
    "{nodes:,} x {server}.":
        "Replikate für die Last: {load:,}; mit Redundanz ({redundancy}): {replicas:,}, auf "
        "{nodes:,} x {server}.",
    "A node loads its weights from '{tier}' storage ({read:g} GB/s read) and serves after "
    "about {cold:,.0f} s.":
        "Ein Knoten lädt seine Gewichte aus der Speicherklasse '{tier}' ({read:g} GB/s Lesen) "
        "und ist nach etwa {cold:,.0f} s bereit.",
    "The batch volume takes {hours:,.1f} h on {load:,} replicas at saturation throughput.":
        "Das Batch-Volumen dauert {hours:,.1f} h beim Durchsatz in Sättigung (Replikate: "
        "{load:,}).",
    "A single node: when it fails, nothing serves until it is repaired.":
        "Ein einzelner Knoten: Fällt er aus, wird bis zur Reparatur nichts bedient.",
    "With one node down, {left:,} of {replicas:,} replicas still serve the full load ({load:,} "
    "needed).":
        "Bei Ausfall eines Knotens bedienen {left:,} von {replicas:,} Replikaten weiterhin die "
        "volle Last ({load:,} benötigt).",
    "With one node down, {left:,} of {replicas:,} replicas serve about {share:.0%} of the peak "
    "load; the rest queue.":
        "Bei Ausfall eines Knotens bedienen {left:,} von {replicas:,} Replikaten etwa {share:.0%} "
        "der Spitzenlast; der Rest wartet in der Warteschlange.",
    # string parameters of the sentences above: what bounds a decode step (bd.bound) ...
    "memory": "Speicherbandbreite",
    "compute": "Rechenleistung",
    # ... and the redundancy code (Scenario.availability.redundancy; "none" is in de_report)
    "n+1": "N+1",
    "2n": "2N",
    "NONE": "keine",
    # === engine: warnings (app/engine/explain.py) ===============================================
    "The weights do not fit on {gpus} x {gpu}: use more GPUs, a larger GPU or a smaller weight "
    "format.":
        "Die Gewichte passen nicht auf {gpus} x {gpu}: Verwenden Sie mehr GPUs, eine größere "
        "GPU oder ein kleineres Gewichtsformat.",
    "The KV cache for {users} users at {context:,} tokens does not fit: only {n} sequences fit "
    "per replica; the others wait in a queue.":
        "Der KV-Cache für {users} Nutzer bei {context:,} Tokens passt nicht (Sequenzen je "
        "Replikat: höchstens {n}); die übrigen Nutzer warten in einer Warteschlange.",
    "The batch needs {hours:.1f} h, longer than its {window:g} h window.":
        "Der Batch braucht {hours:.1f} h, länger als sein Zeitfenster von {window:g} h.",
    "{speed:.1f} tokens/s per user misses the target of {target:g}.":
        "{speed:.1f} Tokens/s je Nutzer verfehlen das Ziel von {target:g}.",
    "TTFT of {ttft:.2f} s misses the target of {target:g} s.":
        "Eine TTFT von {ttft:.2f} s verfehlt das Ziel von {target:g} s.",
    "A single node without redundancy: any failure stops the service.":
        "Ein einzelner Knoten ohne Redundanz: Jeder Ausfall unterbricht den Dienst.",
    "No load meets both targets on this configuration; replicas were sized on what memory "
    "admits, and the targets stay missed.":
        "Mit dieser Konfiguration erreicht keine Last beide Ziele; die Replikate wurden nach "
        "dem dimensioniert, was der Speicher zulässt, und die Ziele bleiben verfehlt.",
    "The {engine} profile is not calibrated against measurements on {family} GPUs; "
    "performance figures carry a wider band. Calibrate from a measurement where possible.":
        "Das {engine}-Profil ist nicht gegen Messungen auf {family}-GPUs kalibriert; die "
        "Leistungswerte haben eine breitere Bandbreite. Kalibrieren Sie nach Möglichkeit "
        "anhand einer Messung.",
    "{gpu}: {fields} derived rather than read from a datasheet; check before relying on them.":
        "{gpu}: {fields} abgeleitet statt aus einem Datenblatt gelesen; prüfen Sie die Werte, "
        "bevor Sie sich darauf verlassen.",
    "{fmt} weights lose some quality; regulated sectors usually keep 8 or 16 bit.":
        "{fmt}-Gewichte verlieren etwas Qualität; regulierte Branchen bleiben meist bei 8 oder "
        "16 Bit.",
    # the cost note (explain.cost_result, shown through t(r.cost.note))
    "Indicative prices from the catalog, dated and sourced (street prices vary by 20-40 %).":
        "Indikative Preise aus dem Katalog, mit Datum und Quelle (Marktpreise weichen um "
        "20–40 % ab).",
    "Indicative prices from the catalog, dated and sourced (street prices vary by 20-40 %). "
    "Lines marked estimated use a planning rule where no price is published.":
        "Indikative Preise aus dem Katalog, mit Datum und Quelle (Marktpreise weichen um "
        "20–40 % ab). Als geschätzt markierte Positionen folgen einer Planungsregel, wo kein "
        "Preis veröffentlicht ist.",
    # === engine: infrastructure (app/engine/infrastructure.py) ==================================
    "A replica spans {n} nodes, so its GPUs need a scale-out fabric.":
        "Ein Replikat erstreckt sich über {n} Knoten; seine GPUs brauchen daher ein "
        "Scale-out-Fabric.",
    "A scale-out fabric was requested in the scenario.":
        "Das Szenario fordert ein Scale-out-Fabric.",
    "Every replica fits inside one node's scale-up domain; no scale-out fabric is needed "
    "(front-end, storage and management networks still are).":
        "Jedes Replikat passt in die Scale-up-Domäne eines Knotens; ein Scale-out-Fabric ist "
        "nicht nötig (Front-End-, Speicher- und Management-Netz sehr wohl).",
    "One node draws {node:.1f} kW, more than the rack limit of {limit:.1f} kW: each node gets "
    "its own rack and still exceeds it; choose a stronger cooling option.":
        "Ein Knoten nimmt {node:.1f} kW auf, mehr als die Rack-Grenze von {limit:.1f} kW: "
        "Jeder Knoten erhält ein eigenes Rack und überschreitet sie trotzdem; wählen Sie eine "
        "leistungsfähigere Kühlung.",
    # === engine: levers (app/engine/levers.py) ==================================================
    "FP8 KV cache is near-lossless for most models":
        "FP8-KV-Cache ist für die meisten Modelle nahezu verlustfrei",
    "8-bit weights are near-lossless; regulated sectors accept 8 bit":
        "8-Bit-Gewichte sind nahezu verlustfrei; regulierte Branchen akzeptieren 8 Bit",
    "{n} x {gpu} per replica (t = {t}, p = {p})": "{n} x {gpu} je Replikat (t = {t}, p = {p})",
    "{n} x {gpu} per replica (t = {t}, p = {p}) and FP8 KV cache":
        "{n} x {gpu} je Replikat (t = {t}, p = {p}) und FP8-KV-Cache",
    "FP8 KV cache": "FP8-KV-Cache",
    "{fmt} weights": "{fmt}-Gewichte",
    "{new} instead of {old}": "{new} statt {old}",
    "maximum context {n:,} tokens": "maximaler Kontext {n:,} Tokens",
    "KV cache still short": "KV-Cache weiterhin zu knapp",
    "FP8 KV cache is near-lossless for most models; KV cache still short":
        "FP8-KV-Cache ist für die meisten Modelle nahezu verlustfrei; KV-Cache weiterhin zu "
        "knapp",
    "8-bit weights are near-lossless; regulated sectors accept 8 bit; KV cache still short":
        "8-Bit-Gewichte sind nahezu verlustfrei; regulierte Branchen akzeptieren 8 Bit; "
        "KV-Cache weiterhin zu knapp",
    # === engine: GPU selection (app/engine/selection.py, pipeline.py) ===========================
    "does not fit: weights, runtime and one sequence need {need:.1f} GB per GPU, {usable:.1f} "
    "GB usable":
        "passt nicht: Gewichte, Laufzeitumgebung und eine Sequenz brauchen {need:.1f} GB je "
        "GPU, {usable:.1f} GB nutzbar",
    "{n} users per replica within the targets": "{n} Nutzer je Replikat innerhalb der Ziele",
    "TTFT {ttft:.2f} s for one user, target {target:g} s":
        "TTFT {ttft:.2f} s für einen Nutzer, Ziel {target:g} s",
    "{speed:.1f} tokens/s for one user, target {target:g}":
        "{speed:.1f} Tokens/s für einen Nutzer, Ziel {target:g}",
    "ties on {rank}; ranked lower on GPU count, power or format":
        "gleichauf bei {rank}; nachrangig nach GPU-Anzahl, Leistungsaufnahme oder Format",
    # the ranking as "ties on {rank}" names it (rank_by with spaces)
    "capital cost": "Investitionskosten",
    "power": "Leistungsaufnahme",
    "gpu count": "GPU-Anzahl",
    "tokens per dollar": "Tokens pro Dollar",
    # why a candidate lost (selection.loss_reason)
    "fewer users per dollar": "weniger Nutzer pro Dollar",
    "costs more (USD {mine:,.0f} against {best:,.0f})":
        "teurer ({mine:,.0f} USD gegenüber {best:,.0f} USD)",
    "costs more (no indicative price in the catalog)":
        "teurer (kein indikativer Preis im Katalog)",
    "draws more power ({mine:.1f} kW against {best:.1f} kW)":
        "höhere Leistungsaufnahme ({mine:.1f} kW gegenüber {best:.1f} kW)",
    "needs more GPUs ({mine} GPUs against {best})":
        "braucht mehr GPUs ({mine} GPUs gegenüber {best})",
    "closest (no candidate meets the targets)":
        "am nächsten an den Zielen (kein Kandidat erreicht sie)",
    # === engine: retrieval and CPU comparison (app/engine/pipeline.py) ==========================
    "The prompt of {prompt:,} tokens is shorter than the {added:,} tokens of retrieved context "
    "({k:,} chunks of {chunk:,}); raise workload.prompt_tokens so that the GPU sizing includes "
    "them.":
        "Der Prompt mit {prompt:,} Tokens ist kürzer als die {added:,} Tokens abgerufenen "
        "Kontexts ({k:,} Chunks zu je {chunk:,}); erhöhen Sie workload.prompt_tokens, damit die "
        "GPU-Dimensionierung sie einschließt.",
    "The CPU comparison uses {cpu_fmt} weights (CPUs have no {gpu_fmt} kernels).":
        "Der CPU-Vergleich verwendet Gewichte in {cpu_fmt} (CPUs haben keine Kernels für "
        "{gpu_fmt}).",
    # === engine: training (app/engine/narrative.py, explain.py) =================================
    "full training": "Vollständiges Training",
    "no activation recomputation": "ohne Neuberechnung der Aktivierungen",
    "selective activation recomputation": "selektive Neuberechnung der Aktivierungen",
    "full activation recomputation": "vollständige Neuberechnung der Aktivierungen",
    "4-bit NF4": "4-Bit-NF4",
    "{method} of {model}: {params:,.2f} billion parameters, each with {bpp:g} bytes of model "
    "state (16-bit weights and gradients, FP32 master copy and {optimizer} states).":
        "{method} von {model}: {params:,.2f} Milliarden Parameter mit je {bpp:g} Byte "
        "Modellzustand (16-Bit-Gewichte und -Gradienten, FP32-Masterkopie und "
        "{optimizer}-Zustände).",
    "{method} of {model}: the {params:,.2f} billion base weights stay frozen ({fmt}); "
    "{adapters:,.1f} million adapter parameters are trained with {bpp:g} bytes of state each.":
        "{method} von {model}: Die {params:,.2f} Milliarden Basisgewichte bleiben eingefroren "
        "({fmt}); {adapters:,.1f} Millionen Adapter-Parameter werden mit je {bpp:g} Byte Zustand "
        "trainiert.",
    "{gpus:,} x {gpu}: {d:,} data-parallel replicas of {t:,} (tensor) x {p:,} (pipeline) GPUs, ZeRO "
    "stage {zero}, {recompute}.":
        "{gpus:,} x {gpu}: Datenparallelität {d:,}, je Replikat {t:,} (Tensor) x {p:,} (Pipeline) "
        "GPUs, ZeRO-Stufe {zero}, {recompute}.",
    "Each GPU holds {states:,.1f} GB of model state (weights {w:,.1f}, gradients {g:,.1f}, "
    "optimizer {o:,.1f}) and {act:,.1f} GB of activations: {need:,.1f} GB of the {usable:,.1f} GB "
    "usable.":
        "Jede GPU hält {states:,.1f} GB Modellzustand (Gewichte {w:,.1f}, Gradienten {g:,.1f}, "
        "Optimierer {o:,.1f}) und {act:,.1f} GB Aktivierungen: {need:,.1f} GB der {usable:,.1f} GB "
        "nutzbaren.",
    "A step trains {tokens:,.0f} tokens ({seqs:,} sequences of {s:,}, {m:,} micro-batches of {b:,} "
    "per replica) in {step:,.2f} s at {mfu:.0%} MFU.":
        "Ein Schritt trainiert {tokens:,.0f} Tokens (Sequenzen: {seqs:,} zu {s:,}; Micro-Batches "
        "je Replikat: {m:,} zu {b:,}) in {step:,.2f} s bei {mfu:.0%} MFU.",
    "{tokens:.3g} tokens x {fpt:.3g} FLOPs each = {flops:.3g} FLOPs take {days:,.1f} days "
    "({hours:,.0f} GPU-hours) at {mfu:.0%} of {peak:,.0f} TFLOP/s per GPU.":
        "{tokens:.3g} Tokens x je {fpt:.3g} FLOPs = {flops:.3g} FLOPs dauern {days:,.1f} Tage "
        "({hours:,.0f} GPU-Stunden) bei {mfu:.0%} von {peak:,.0f} TFLOP/s je GPU.",
    "Communication per step: gradient all-reduce {dp:,.2f} s (hidden behind the backward "
    "pass), tensor-parallel {tp:,.2f} s and pipeline {pp:,.3f} s (inside the MFU).":
        "Kommunikation je Schritt: Gradienten-All-Reduce {dp:,.2f} s (verdeckt durch den "
        "Backward-Pass), Tensor-Parallelität {tp:,.2f} s und Pipeline {pp:,.3f} s (in der MFU "
        "enthalten).",
    "Communication per step: gradient all-reduce {dp:,.2f} s (partly exposed, added to the "
    "step), tensor-parallel {tp:,.2f} s and pipeline {pp:,.3f} s (inside the MFU).":
        "Kommunikation je Schritt: Gradienten-All-Reduce {dp:,.2f} s (teilweise nicht verdeckt, "
        "zum Schritt addiert), Tensor-Parallelität {tp:,.2f} s und Pipeline {pp:,.3f} s (in der "
        "MFU enthalten).",
    "A checkpoint is {size:,.1f} GB and takes {save:,.0f} s to write; with a failure every "
    "{mtbf:,.1f} h on {gpus:,} GPUs the best interval is {interval:,.0f} min, costing {share:.1%} "
    "of the run: {days:,.1f} days in all.":
        "Ein Checkpoint umfasst {size:,.1f} GB, das Schreiben dauert {save:,.0f} s; bei einem "
        "Ausfall alle {mtbf:,.1f} h auf {gpus:,} GPUs ist das beste Intervall {interval:,.0f} min, "
        "das {share:.1%} der Laufzeit kostet: insgesamt {days:,.1f} Tage.",
    "Storage: {n:,} checkpoints ({ckpt:,.1f} TB) and the data set ({data:,.2f} TB).":
        "Speicher: {n:,} Checkpoints ({ckpt:,.1f} TB) und der Datensatz ({data:,.2f} TB).",
    "A GPU or node failure stops the whole job; it resumes from the last checkpoint (every "
    "{interval:,.0f} min), losing about {lost:,.0f} min of work; at {gpus:,} GPUs that happens "
    "about every {mtbf:,.1f} h.":
        "Ein Ausfall einer GPU oder eines Knotens stoppt den ganzen Job; er setzt am letzten "
        "Checkpoint wieder auf (alle {interval:,.0f} min) und verliert etwa {lost:,.0f} min "
        "Arbeit; bei {gpus:,} GPUs geschieht das etwa alle {mtbf:,.1f} h.",
    "The training cluster: {gpus:,} GPUs on {nodes:,} x {server}; training keeps no spare "
    "replicas, it restarts from checkpoints.":
        "Der Trainingscluster: {gpus:,} GPUs auf {nodes:,} x {server}; das Training hält keine "
        "Reserve-Replikate vor, es startet von Checkpoints neu.",
    "Resuming reads the checkpoint from '{tier}' storage in about {resume:,.0f} s.":
        "Das Wiederaufsetzen liest den Checkpoint in etwa {resume:,.0f} s aus der "
        "Speicherklasse '{tier}'.",
    "chosen": "gewählt",
    "works with {gpus} GPUs ({days:.1f} days); ranked lower":
        "funktioniert mit {gpus} GPUs ({days:.1f} Tage); nachrangig",
    "does not fit: {need:.1f} GB per GPU against {usable:.1f} GB usable (closest of the "
    "configurations tried)":
        "passt nicht: {need:.1f} GB je GPU gegenüber {usable:.1f} GB nutzbar (die nächste der "
        "geprüften Konfigurationen)",
    "misses the target: {days:.1f} days against {target:g}":
        "verfehlt das Ziel: {days:.1f} Tage gegenüber {target:g}",
    "The training configuration does not fit: {need:.1f} GB per GPU against {usable:.1f} GB "
    "usable on {gpu} ({gpus} GPUs). Raise training.max_gpus, shard more (ZeRO-3), recompute "
    "activations or use a larger GPU.":
        "Die Trainingskonfiguration passt nicht: {need:.1f} GB je GPU gegenüber {usable:.1f} GB "
        "nutzbar auf {gpu} ({gpus} GPUs). Erhöhen Sie training.max_gpus, verteilen Sie stärker "
        "(ZeRO-3), berechnen Sie Aktivierungen neu oder verwenden Sie eine größere GPU.",
    "Training takes {days:.1f} days, longer than the target of {target:g} days.":
        "Das Training dauert {days:.1f} Tage, länger als das Ziel von {target:g} Tagen.",
    "Training takes {years:.1f} years on the smallest configuration that fits; set "
    "training.target_days to size the cluster for a deadline.":
        "Das Training dauert auf der kleinsten passenden Konfiguration {years:.1f} Jahre; "
        "setzen Sie training.target_days, um den Cluster für eine Frist zu dimensionieren.",
    "Activation memory follows Korthikanti et al. (a GeLU MLP of width 4h, multi-head "
    "attention); for {model} (gated MLP, grouped-query attention or experts) it is an "
    "approximation.":
        "Der Aktivierungsspeicher folgt Korthikanti et al. (GeLU-MLP der Breite 4h, Multi-Head "
        "Attention); für {model} (Gated MLP, Grouped-Query Attention oder Experten) ist er eine "
        "Näherung.",
    "The gradient all-reduce takes {dp:.2f} s per step, longer than the backward pass it "
    "overlaps; the step is partly communication-bound (more gradient accumulation, ZeRO-1/2 "
    "or a faster fabric help).":
        "Das Gradienten-All-Reduce dauert {dp:.2f} s je Schritt, länger als der Backward-Pass, "
        "mit dem es überlappt; der Schritt ist teilweise kommunikationsgebunden (mehr "
        "Gradientenakkumulation, ZeRO-1/2 oder ein schnelleres Fabric helfen).",
    "The pipeline bubble adds {share:.0%} to every step ({m} micro-batches for {p} stages); "
    "more micro-batches per step or an interleaved schedule reduce it.":
        "Die Pipeline-Blase verlängert jeden Schritt um {share:.0%} ({m} Micro-Batches für {p} "
        "Stufen); mehr Micro-Batches je Schritt oder ein verschränkter Ablauf (interleaved "
        "schedule) verringern sie.",
    "QLoRA dequantises the 4-bit weights in every pass; measured throughput is often well "
    "below the MFU assumed here.":
        "QLoRA dequantisiert die 4-Bit-Gewichte in jedem Durchlauf; der gemessene Durchsatz "
        "liegt oft deutlich unter der hier angenommenen MFU.",
    "Checkpoints and restarts cost {share:.0%} of the run: faster storage or asynchronous "
    "checkpointing (to host memory first) would recover most of it.":
        "Checkpoints und Neustarts kosten {share:.0%} der Laufzeit: Schnellerer Speicher oder "
        "asynchrones Checkpointing (zuerst in den Hauptspeicher) würde das meiste davon "
        "zurückgewinnen.",
    "Tensor parallelism of {t} spans nodes; its collectives then run over the scale-out "
    "network and slow every layer.":
        "Eine Tensor-Parallelität von {t} erstreckt sich über Knoten; ihre kollektiven "
        "Operationen laufen dann über das Scale-out-Netz und bremsen jede Schicht.",
    "The server has no scale-out network adapters; the nodes reach each other over a 10 Gb/s "
    "front-end port, which is far too slow for training.":
        "Der Server hat keine Scale-out-Netzwerkadapter; die Knoten erreichen einander über "
        "einen Front-End-Port mit 10 Gb/s, der für das Training viel zu langsam ist.",
    "Expert parallelism is not modelled: experts are sharded like dense weights and the "
    "all-to-all traffic of routing is not counted.":
        "Experten-Parallelität ist nicht modelliert: Die Experten werden wie dichte Gewichte "
        "verteilt, und der All-to-All-Verkehr des Routings wird nicht gezählt.",
    "Serving the trained model on {gpu} at the scenario's inference settings; the training "
    "memory and time are in the training section.":
        "Bereitstellung des trainierten Modells auf {gpu} mit den Inferenz-Einstellungen des "
        "Szenarios; Speicher und Dauer des Trainings stehen im Trainingsabschnitt.",
    # === engine: retrieval (RAG) and CPU (app/engine/narrative.py) ==============================
    "flat (exact)": "flach (exakt)",
    "{docs:,} documents of about {tokens:,.0f} tokens in all become {chunks:,.0f} chunks; "
    "embedding them reads {embedded:,.0f} tokens (overlaps twice).":
        "{docs:,} Dokumente mit insgesamt etwa {tokens:,.0f} Tokens ergeben {chunks:,.0f} "
        "Chunks; ihr Embedding liest {embedded:,.0f} Tokens (Überlappungen doppelt).",
    "An embedding model of {params:,.0f} million parameters needs {flops:.3g} FLOPs: about "
    "{hours:,.1f} h on {gpus:,} x {gpu}.":
        "Ein Embedding-Modell mit {params:,.0f} Millionen Parametern braucht {flops:.3g} FLOPs: "
        "etwa {hours:,.1f} h auf {gpus:,} x {gpu}.",
    "The {index} index of {chunks:,.0f} vectors of {dim:,} dimensions takes {mem:,.2f} GB of "
    "memory (raw vectors {raw:,.2f} GB); with the chunk texts {disk:,.2f} GB on disk.":
        "Der {index}-Index aus {chunks:,.0f} Vektoren mit {dim:,} Dimensionen belegt {mem:,.2f} GB "
        "Speicher (reine Vektoren {raw:,.2f} GB); mit den Chunk-Texten {disk:,.2f} GB auf dem "
        "Datenträger.",
    "Retrieval adds about {ms:,.0f} ms before the first token: {ttft:,.2f} s instead of "
    "{base:,.2f} s; the prompt carries {added:,} tokens of retrieved context.":
        "Das Retrieval fügt vor dem ersten Token etwa {ms:,.0f} ms hinzu: {ttft:,.2f} s statt "
        "{base:,.2f} s; der Prompt enthält {added:,} Tokens abgerufenen Kontexts.",
    "Re-embedding {share:.0%} of the corpus each day takes about {hours:,.2f} GPU-hours per "
    "day.":
        "Das tägliche erneute Embedding von {share:.0%} des Korpus braucht etwa {hours:,.2f} "
        "GPU-Stunden pro Tag.",
    "{sockets} x {cpu}: {bw:,.0f} GB/s peak memory bandwidth, about {eff:.0%} of it usable "
    "for reading the {size:,.1f} GB of {fmt} weights.":
        "{sockets} x {cpu}: {bw:,.0f} GB/s Spitzen-Speicherbandbreite, davon etwa {eff:.0%} "
        "nutzbar zum Lesen der {size:,.1f} GB Gewichte in {fmt}.",
    "One user alone: first token after {ttft:,.2f} s, then {speed:,.1f} tokens/s (GPU option: "
    "{gpu_speed:,.1f} tokens/s per user at the scenario load).":
        "Ein einzelner Nutzer: erstes Token nach {ttft:,.2f} s, danach {speed:,.1f} Tokens/s "
        "(GPU-Option: {gpu_speed:,.1f} Tokens/s je Nutzer bei der Last des Szenarios).",
    "At {users:,.0f} users the CPU server gives {speed:,.1f} tokens/s each and a first token "
    "after {ttft:,.1f} s; the GPU option {gpu_speed:,.1f} tokens/s and {gpu_ttft:,.2f} s.":
        "Bei {users:,.0f} Nutzern liefert der CPU-Server je {speed:,.1f} Tokens/s und ein erstes "
        "Token nach {ttft:,.1f} s; die GPU-Option {gpu_speed:,.1f} Tokens/s und {gpu_ttft:,.2f} s.",
    "Verdict: a CPU server ({sockets} x {cpu}) is enough for {model} in {fmt} at this load: "
    "{users:,} users meet both targets. A GPU is faster ({gpu:,.0f} against {cpu_speed:,.0f} "
    "tokens/s per user) but not needed.":
        "Bewertung: Ein CPU-Server ({sockets} x {cpu}) genügt für {model} in {fmt} bei dieser "
        "Last: {users:,} Nutzer erreichen beide Ziele. Eine GPU ist schneller ({gpu:,.0f} "
        "gegenüber {cpu_speed:,.0f} Tokens/s je Nutzer), aber nicht nötig.",
    "Verdict: CPUs suit light use only. {sockets} x {cpu} serves up to {n:,} users of {model} "
    "({fmt}) within the targets; the scenario's {users:,} users need the GPU option.":
        "Bewertung: CPUs eignen sich nur für leichte Nutzung. {sockets} x {cpu} bedient bis zu "
        "{n:,} Nutzer von {model} ({fmt}) innerhalb der Ziele; die {users:,} Nutzer des Szenarios "
        "brauchen die GPU-Option.",
    "Verdict: use GPUs. Even one user of {model} ({fmt}) on {sockets} x {cpu} misses the "
    "targets ({speed:,.1f} tokens/s, first token after {ttft:,.1f} s).":
        "Bewertung: Verwenden Sie GPUs. Schon ein einzelner Nutzer von {model} ({fmt}) auf "
        "{sockets} x {cpu} verfehlt die Ziele ({speed:,.1f} Tokens/s, erstes Token nach "
        "{ttft:,.1f} s).",
    # the quality of a number format (catalog precisions, "quality: {quality}")
    "reference": "Referenz",
    "near-lossless": "nahezu verlustfrei",
    "small-loss": "geringer Verlust",
    "noticeable-loss": "spürbarer Verlust",
    # === window: menus, files, recovery (app/ui/main_window.py, app/ui/app.py) ==================
    "&File": "&Datei",
    "&Edit": "&Bearbeiten",
    "&Go": "&Gehe zu",
    "&Help": "&Hilfe",
    "New": "Neu",
    "Open…": "Öffnen…",
    "Save": "Speichern",
    "Save As…": "Speichern unter…",
    "Open Recent": "Zuletzt geöffnet",
    "Export report…": "Bericht exportieren…",
    "Quit": "Beenden",
    "&Undo": "&Rückgängig",
    "&Redo": "&Wiederholen",
    "&Undo {what}": "&Rückgängig: {what}",
    "&Redo {what}": "&Wiederholen: {what}",
    "&Preferences…": "&Einstellungen…",
    "&Sizing method": "&Sizing-Methode",
    "&Verify report…": "Bericht &prüfen…",
    "&About AI Sizer": "Ü&ber AI Sizer",
    "Previous step": "Vorheriger Schritt",
    "Next step": "Nächster Schritt",
    "< Back": "< Zurück",
    "Next >": "Weiter >",
    "Steps": "Schritte",
    "unsaved": "nicht gespeichert",
    "Sizing…": "Dimensionierung läuft…",
    "The scenario has unsaved changes. Save them first?":
        "Das Szenario hat ungespeicherte Änderungen. Möchten Sie sie zuerst speichern?",
    "Open scenario": "Szenario öffnen",
    "Cannot open {path}:": "{path} kann nicht geöffnet werden:",
    "Save scenario": "Szenario speichern",
    "Cannot save {path}: {reason}": "{path} kann nicht gespeichert werden: {reason}",
    "Saved to {path}": "Gespeichert unter {path}",
    "AI Sizer scenarios (*.json)": "AI-Sizer-Szenarien (*.json)",
    "AI Sizer scenarios and reports (*.json *.pdf)": "AI-Sizer-Szenarien und -Berichte (*.json *.pdf)",
    "AI Sizer did not close cleanly last time. Restore the unsaved scenario?":
        "AI Sizer wurde beim letzten Mal nicht ordnungsgemäß beendet. Möchten Sie das nicht "
        "gespeicherte Szenario wiederherstellen?",
    "Cannot restore the unsaved scenario:":
        "Das nicht gespeicherte Szenario kann nicht wiederhergestellt werden:",
    # === summary beside every step (app/ui/summary_panel.py) ====================================
    "Summary": "Übersicht",
    "VRAM per GPU": "VRAM je GPU",
    "Nodes": "Knoten",
    "IT power": "IT-Leistung",
    "{used} of {usable} usable per GPU": "{used} von {usable} nutzbar je GPU",
    "Fits in memory": "Passt in den Speicher",
    "Does not fit": "Passt nicht",
    "Speed target met": "Geschwindigkeitsziel erreicht",
    "Speed target missed": "Geschwindigkeitsziel verfehlt",
    "TTFT target met": "TTFT-Ziel erreicht",
    "TTFT target missed": "TTFT-Ziel verfehlt",
    "{n} for load, {m} with {redundancy}": "{n} für Last, {m} ges. ({redundancy})",
    "{n} for load, no redundancy": "{n} für Last, ohne Redundanz",
    "{share:.0%} of the usable memory": "{share:.0%} des nutzbaren Speichers",
    # === step 1: requirements (app/ui/pages/requirements.py) ====================================
    "1 Requirements": "1 Anforderungen",
    "Describe what the deployment must serve: the model, the workload, the quality floor and "
    "the targets. Every change resizes the deployment at once.":
        "Beschreiben Sie, was die Bereitstellung leisten muss: das Modell, die Last, die "
        "Mindestqualität und die Ziele. Jede Änderung dimensioniert die Bereitstellung sofort "
        "neu.",
    "Scenario name": "Name des Szenarios",
    "The name the report and the window title show.":
        "Der Name, den der Bericht und die Titelleiste des Fensters zeigen.",
    "Who the sizing is for; printed on the report.":
        "Für wen die Dimensionierung erstellt wird; erscheint im Bericht.",
    "The customer's project or use case; printed on the report.":
        "Projekt oder Anwendungsfall des Kunden; erscheint im Bericht.",
    "The model to serve; type to filter the catalog by name or id.":
        "Das bereitzustellende Modell; tippen Sie, um den Katalog nach Name oder ID zu "
        "filtern.",
    "Search by name or id": "Nach Name oder ID suchen",
    "Import model folder…": "Modellordner importieren…",
    "Add a model from a local Hugging Face folder (config.json) to your catalog.":
        "Nimmt ein Modell aus einem lokalen Hugging-Face-Ordner (config.json) in Ihren Katalog "
        "auf.",
    "Active per token": "Aktiv je Token",
    "Layers": "Schichten",
    "KV heads": "KV-Heads",
    "Head dimension": "Head-Dimension",
    "Context limit": "Kontextgrenze",
    "Architecture": "Architektur",
    "{count:,.1f} billion": "{count:,.1f} Milliarden",
    "{kv} (query heads: {heads})": "{kv} (Query-Heads: {heads})",
    "{tokens:,} tokens": "{tokens:,} Tokens",
    "Mixture of experts": "Mixture of Experts (MoE)",
    "Dense": "Dicht (Dense)",
    "multi-head latent attention (MLA)": "Multi-Head Latent Attention (MLA)",
    "sliding window of {tokens:,} tokens": "Sliding Window von {tokens:,} Tokens",
    "Quality floor and number formats": "Mindestqualität und Zahlenformate",
    "{bits:g} bits per weight; quality: {quality}.":
        "{bits:g} Bit je Gewicht; Qualität: {quality}.",
    "Allowed weight formats": "Erlaubte Gewichtsformate",
    "The weight formats Step 3 may choose from.":
        "Die Gewichtsformate, aus denen Schritt 3 wählen darf.",
    "Regulated sectors (finance, health, public sector) usually keep 8 or 16 bit; 4-bit "
    "formats trade accuracy for memory.":
        "Regulierte Branchen (Finanzwesen, Gesundheitswesen, öffentlicher Sektor) bleiben "
        "meist bei 8 oder 16 Bit; 4-Bit-Formate tauschen Genauigkeit gegen Speicher.",
    "Weight format": "Gewichtsformat",
    "Fix the weight format, or leave the default (the model's own format).":
        "Legen Sie das Gewichtsformat fest oder behalten Sie die Vorgabe (das eigene Format "
        "des Modells).",
    "KV cache format": "KV-Cache-Format",
    "The number format of the attention cache (FP8 halves it against 16 bit).":
        "Das Zahlenformat des Attention-Cache (FP8 halbiert ihn gegenüber 16 Bit).",
    "(default)": "(Vorgabe)",
    "(default: {format})": "(Vorgabe: {format})",
    "default: {value:g}": "Vorgabe: {value:g}",
    "What the deployment does with the model.": "Was die Bereitstellung mit dem Modell tut.",
    "Online inference": "Online-Inferenz",
    "Users wait for each answer: sized for time to first token and speed per user.":
        "Nutzer warten auf jede Antwort: dimensioniert nach der Zeit bis zum ersten Token und "
        "der Geschwindigkeit je Nutzer.",
    "Batch inference": "Batch-Inferenz",
    "Jobs must finish within a window: sized for throughput.":
        "Jobs müssen in einem Zeitfenster fertig werden: dimensioniert nach Durchsatz.",
    "Fine-tuning": "Feinabstimmung",
    "Pre-training": "Vortraining",
    "Adapt a trained model (full, LoRA or QLoRA): sized for memory per GPU and time to train; "
    "see the page Training and workloads.":
        "Ein trainiertes Modell anpassen (vollständig, LoRA oder QLoRA): dimensioniert nach "
        "Speicher je GPU und Trainingsdauer; siehe die Seite Training und Workloads.",
    "Train a model from scratch on a token budget: sized for memory per GPU, GPU count and "
    "time to train.":
        "Ein Modell von Grund auf mit einem Token-Budget trainieren: dimensioniert nach "
        "Speicher je GPU, GPU-Anzahl und Trainingsdauer.",
    "Users with a request in flight at the busiest moment.":
        "Nutzer mit einer laufenden Anfrage im Moment der höchsten Last.",
    "users": "Nutzer",
    "max (saturation)": "Max. (Sättigung)",
    "Size for as many users as the hardware admits.":
        "Für so viele Nutzer dimensionieren, wie die Hardware zulässt.",
    "Requests": "Anfragen",
    "Requests arriving per hour.": "Eingehende Anfragen pro Stunde.",
    "per hour": "pro Stunde",
    "Output tokens": "Ausgabe-Tokens",
    "Output tokens to generate per day (used instead of requests when both are given).":
        "Pro Tag zu erzeugende Ausgabe-Tokens (ersetzen die Anfragen, wenn beides angegeben "
        "ist).",
    "per day": "pro Tag",
    "Completion window": "Zeitfenster für den Abschluss",
    "Hours within which each day's batch must be finished.":
        "Stunden, innerhalb derer der Batch eines Tages abgeschlossen sein muss.",
    "hours": "Stunden",
    "Give either requests per hour or output tokens per day.":
        "Geben Sie entweder Anfragen pro Stunde oder Ausgabe-Tokens pro Tag an.",
    "Sequence lengths": "Sequenzlängen",
    "Prompt": "Eingabe (Prompt)",
    "Input tokens per request, system prompt and retrieved documents included.":
        "Eingabe-Tokens je Anfrage, einschließlich System-Prompt und abgerufener Dokumente.",
    "tokens": "Tokens",
    "Output": "Ausgabe",
    "Tokens the model generates per request.": "Tokens, die das Modell je Anfrage erzeugt.",
    "Maximum context": "Maximaler Kontext",
    "The longest sequence a user may reach; the KV cache is sized for it.":
        "Die längste Sequenz, die ein Nutzer erreichen kann; der KV-Cache wird dafür "
        "dimensioniert.",
    "Set the maximum context to {tokens:,} tokens.":
        "Maximalen Kontext auf {tokens:,} Tokens setzen.",
    "prompt + output = {tokens:,}": "Prompt + Ausgabe = {tokens:,}",
    "Targets and serving": "Ziele und Serving",
    "The longest a user may wait for the first token of an answer.":
        "Die längste Zeit, die ein Nutzer auf das erste Token einer Antwort warten darf.",
    "Speed per user": "Geschwindigkeit je Nutzer",
    "The generation speed each user must see.":
        "Die Generierungsgeschwindigkeit, die jeder Nutzer mindestens erhalten muss.",
    "tokens/s": "Tokens/s",
    "The inference server whose memory and speed profile is used.":
        "Der Inferenzserver, dessen Speicher- und Geschwindigkeitsprofil verwendet wird.",
    "Other engine (generic profile)": "Andere Engine (generisches Profil)",
    "Sovereignty and availability": "Souveränität und Verfügbarkeit",
    "On premises": "Im eigenen Rechenzentrum",
    "The deployment runs in the customer's own data centre.":
        "Die Bereitstellung läuft im eigenen Rechenzentrum des Kunden.",
    "Air-gapped": "Vom Netz getrennt (Air-Gap)",
    "No connection to the internet: models and updates are brought in by hand.":
        "Keine Verbindung zum Internet: Modelle und Updates werden manuell eingespielt.",
    "Where data and models must stay, e.g. EU or Germany.":
        "Wo Daten und Modelle bleiben müssen, z. B. EU oder Deutschland.",
    "Spare capacity kept for a failed replica.":
        "Reservekapazität für ein ausgefallenes Replikat.",
    "None": "Keine",
    "A failed replica takes its share of the users down.":
        "Ein ausgefallenes Replikat reißt seinen Anteil der Nutzer mit.",
    "N+1 (one spare replica)": "N+1 (ein Reserve-Replikat)",
    "One replica more than the load needs.": "Ein Replikat mehr, als die Last braucht.",
    "2N (everything doubled)": "2N (alles verdoppelt)",
    "Twice the replicas the load needs.": "Doppelt so viele Replikate, wie die Last braucht.",
    # === step 2: memory (app/ui/pages/memory.py, charts.VramChart) ==============================
    "2 Memory": "2 Speicher",
    "What each GPU must hold at peak: the weights, the KV cache of every user at the longest "
    "context, and the runtime. The engine may use only part of the card.":
        "Was jede GPU in der Spitze aufnehmen muss: die Gewichte, den KV-Cache jedes Nutzers "
        "beim längsten Kontext und die Laufzeitumgebung. Die Engine darf nur einen Teil der "
        "Karte nutzen.",
    "KV cache at average context": "KV-Cache bei mittlerem Kontext",
    "Total at peak context": "Summe bei maximalem Kontext",
    "Left for the KV cache": "Verfügbar für den KV-Cache",
    "Physical memory": "Physischer Speicher",
    "KV cache per sequence": "KV-Cache je Sequenz",
    "Concurrent sequences": "Gleichzeitige Sequenzen",
    "Peak against average context": "Maximaler gegenüber mittlerem Kontext",
    "{replica} for the replica, {gpu} on each GPU":
        "{replica} für das Replikat, {gpu} auf jeder GPU",
    "{size} at {tokens} tokens": "{size} bei {tokens} Tokens",
    "{fit} fit at peak context (sized for {sized}; engine limit {limit})":
        "{fit} passen bei maximalem Kontext (dimensioniert für {sized}; Grenze der Engine "
        "{limit})",
    "{peak} tokens at peak, {average} on average: KV cache {kv_peak} against {kv_avg}":
        "{peak} Tokens maximal, {average} im Mittel: KV-Cache {kv_peak} gegenüber {kv_avg}",
    "Rule of thumb against this estimate": "Faustregel gegenüber dieser Schätzung",
    "Rule of thumb, parameters x 2 bytes:": "Faustregel, Parameter x 2 Byte:",
    "This estimate, whole replica at peak context:":
        "Diese Schätzung, ganzes Replikat bei maximalem Kontext:",
    "Whole replica ({n} GPUs)": "Ganzes Replikat ({n} GPUs)",
    "How this was sized": "Wie dies dimensioniert wurde",
    "KV cache at peak": "KV-Cache in der Spitze",
    "Free": "Frei",
    "Memory per GPU": "Speicher je GPU",
    "One GPU (the fullest)": "Die vollste GPU",
    "Usable by the engine: {gb} GB": "Für die Engine nutzbar: {gb} GB",
    "Physical memory: {gb} GB": "Physischer Speicher: {gb} GB",
    # === step 3: GPU selection (app/ui/pages/gpu_selection.py) ==================================
    "3 GPU selection": "3 GPU-Auswahl",
    "Step 3 either evaluates the configuration you give, or searches the catalog for every "
    "GPU, count, tensor-parallel degree and number format, keeps those that work and ranks "
    "them. Double-click a row to use it.":
        "Schritt 3 bewertet entweder die von Ihnen vorgegebene Konfiguration oder durchsucht "
        "den Katalog nach jeder GPU, Anzahl, Tensor-Parallelität und jedem Zahlenformat, "
        "behält die tauglichen und ordnet sie. Doppelklicken Sie auf eine Zeile, um sie zu "
        "übernehmen.",
    "Lowest indicative capital cost": "Niedrigste indikative Investitionskosten",
    "Lowest power": "Niedrigste Leistungsaufnahme",
    "Fewest GPUs": "Wenigste GPUs",
    "Most users per dollar": "Meiste Nutzer pro Dollar",
    "Your configuration": "Ihre Konfiguration",
    "Users per replica": "Nutzer je Replikat",
    "Tokens/s per user (one user)": "Tokens/s je Nutzer (ein Nutzer)",
    "TTFT (one user)": "TTFT (ein Nutzer)",
    "Replicas / GPUs": "Replikate / GPUs",
    "* The chosen row (★) shows the full sizing: replicas, power (whole servers) and cost "
    "after Step 5 placed the replicas on servers, so they can be higher than the Step 3 "
    "estimates of the other rows.":
        "* Die gewählte Zeile (★) zeigt die vollständige Dimensionierung: Replikate, Leistung "
        "(ganze Server) und Kosten, nachdem Schritt 5 die Replikate auf Server verteilt hat; "
        "sie können daher höher sein als die Schätzungen aus Schritt 3 in den anderen Zeilen.",
    "Rank in the search (★: the chosen configuration)":
        "Rang in der Suche (★: die gewählte Konfiguration)",
    "GPUs per\nreplica": "GPUs je\nReplikat",
    "Tensor\nparallel": "Tensor-\nParallelität",
    "Tensor-parallel degree (pipeline stages when more than one)":
        "Grad der Tensor-Parallelität (Pipeline-Stufen, wenn mehr als eine)",
    "Weights /\nKV cache": "Gewichte /\nKV-Cache",
    "Number formats of the weights and of the KV cache":
        "Zahlenformate der Gewichte und des KV-Cache",
    "VRAM per\nGPU (GB)": "VRAM je\nGPU (GB)",
    "What one GPU must hold at the users a replica serves":
        "Was eine GPU bei den Nutzern aufnehmen muss, die ein Replikat bedient",
    "Max users\nper replica": "Max. Nutzer\nje Replikat",
    "Most users one replica serves within both targets":
        "Höchstzahl der Nutzer, die ein Replikat innerhalb beider Ziele bedient",
    "Tokens/s\nper user": "Tokens/s\nje Nutzer",
    "Generation speed for one user alone": "Generierungsgeschwindigkeit für einen einzelnen Nutzer",
    "Time to first token for one user alone":
        "Zeit bis zum ersten Token für einen einzelnen Nutzer",
    "Replicas\nneeded": "Benötigte\nReplikate",
    "Replicas for the load plus those for redundancy":
        "Replikate für die Last plus die für die Redundanz",
    "Power (kW)": "Leistung (kW)",
    "GPU power of all replicas (chosen row: IT power of its servers)":
        "GPU-Leistung aller Replikate (gewählte Zeile: IT-Leistung ihrer Server)",
    "Indicative\ncost (USD)": "Indikative\nKosten (USD)",
    "Indicative GPU prices from the catalog; street prices vary":
        "Indikative GPU-Preise aus dem Katalog; Marktpreise weichen ab",
    "Reason": "Begründung",
    "Why the candidate lost to the chosen one":
        "Warum der Kandidat der gewählten Konfiguration unterlegen ist",
    "{t} (x {p} pipeline)": "{t} (x {p} Pipeline)",
    "n/a": "k. A.",
    "USD {amount}": "{amount} USD",
    "Let the tool choose": "Das Werkzeug wählen lassen",
    "Use this configuration": "Diese Konfiguration verwenden",
    "Search": "Suche",
    "Rank by": "Rangfolge nach",
    "GPUs to consider": "Zu berücksichtigende GPUs",
    "All GPUs in the catalog": "Alle GPUs im Katalog",
    "Filter: GPU, format, verdict, reason…": "Filter: GPU, Format, Bewertung, Begründung…",
    "Only candidates that meet the targets": "Nur Kandidaten, die die Ziele erreichen",
    "Make the selected row the scenario's configuration":
        "Die ausgewählte Zeile zur Konfiguration des Szenarios machen",
    "The search settings apply when the tool chooses the configuration.":
        "Die Sucheinstellungen gelten, wenn das Werkzeug die Konfiguration wählt.",
    "All GPUs": "Alle GPUs",
    "Chosen: {how}": "Gewählt: {how}",
    "Chosen by: {how}": "Auswahl: {how}",
    "Only your configuration is evaluated. Choose 'Let the tool choose' to compare it with "
    "every configuration the catalog allows.":
        "Nur Ihre Konfiguration wird bewertet. Wählen Sie 'Das Werkzeug wählen lassen', um sie "
        "mit jeder Konfiguration zu vergleichen, die der Katalog zulässt.",
    "<b>{n} x {gpu}</b> per replica, tensor parallel {t}, pipeline {p}, {w} weights, {kv} KV "
    "cache, {engine}":
        "<b>{n} x {gpu}</b> je Replikat, Tensor-Parallelität {t}, Pipeline {p}, Gewichte {w}, "
        "KV-Cache {kv}, {engine}",
    "{shown} of {total} shown": "{shown} von {total} angezeigt",
    "Let the tool choose the configuration": "Konfiguration vom Werkzeug wählen lassen",
    "Rank by {what}": "Rangfolge nach {what}",
    "Use {n} x {gpu}, {w}": "{n} x {gpu}, {w} verwenden",
    # === step 4: performance (app/ui/pages/performance.py, charts) ==============================
    "4 Performance": "4 Durchsatz und Latenz",
    "How fast one replica answers: the first token, then tokens per second for each user, "
    "from one user to the most the memory and the engine allow.":
        "Wie schnell ein Replikat antwortet: das erste Token, dann Tokens pro Sekunde für jeden "
        "Nutzer, von einem Nutzer bis zu so vielen, wie Speicher und Engine zulassen.",
    "One user": "Ein Nutzer",
    "Scenario load": "Last des Szenarios",
    "Operating point": "Betriebspunkt",
    "Target missed": "Verfehltes Ziel",
    "Value after": "Wert danach",
    "Meets both targets": "Erreicht beide Ziele",
    "{expected}\nrange {low} – {high}": "{expected}\nBereich {low} – {high}",
    "Yes": "Ja",
    "No": "Nein",
    "TTFT under {target}: {value} at {users} users, {verdict}":
        "TTFT unter {target}: {value} bei {users} Nutzern, {verdict}",
    "Tokens/s per user at least {target}: {value} at {users} users, {verdict}":
        "Tokens/s je Nutzer mind. {target}: {value} bei {users} Nutzern, {verdict}",
    "What would meet the targets": "Was die Ziele erreichen würde",
    "No per-user targets apply to this workload.": "Für diese Last gelten keine Ziele je Nutzer.",
    "Reads and compute overlap: a step takes the longer of the memory reads (weights and KV "
    "cache) and the compute, plus the other parts.":
        "Lesen und Rechnen überlappen sich: Ein Schritt dauert so lange wie das Längere aus "
        "Speicherlesen (Gewichte und KV-Cache) und Rechnen, plus die übrigen Anteile.",
    "How this was estimated": "Wie dies geschätzt wurde",
    "Per user": "Je Nutzer",
    "Replica output": "Ausgabe des Replikats",
    "Concurrent users (log scale)": "Gleichzeitige Nutzer (logarithmisch)",
    "Its expected range": "Erwartete Bandbreite",
    "Output tokens/s of a replica": "Ausgabe-Tokens/s eines Replikats",
    "Target: {rate} tokens/s": "Ziel: {rate} Tokens/s",
    "Naive, bandwidth / model size: {rate} tokens/s":
        "Naiv, Bandbreite / Modellgröße: {rate} Tokens/s",
    "{name}: {users} users": "{name}: {users} Nutzer",
    "Prompt length (log scale)": "Prompt-Länge (logarithmisch)",
    "One user alone": "Ein einzelner Nutzer",
    "TTFT target: {s} s": "TTFT-Ziel: {s} s",
    "Time in one decode step": "Zeit in einem Decode-Schritt",
    "Weights read": "Gewichte lesen",
    "KV cache read": "KV-Cache lesen",
    "Other users' prompts": "Prompts anderer Nutzer",
    "Step overhead": "Overhead je Schritt",
    "memory-bound": "speichergebunden",
    "compute-bound": "rechengebunden",
    "At {users} users: {ms} ms per step ({bound})":
        "Bei {users} Nutzern: {ms} ms je Schritt ({bound})",
    # === step 5: redundancy and scale (app/ui/pages/redundancy.py) ==============================
    "5 Redundancy and scale": "5 Redundanz und Skalierung",
    "Replicas for the load come from Step 4; redundancy adds nodes so that the load is still "
    "served when a node fails. Replicas are spread evenly over the nodes.":
        "Die Replikate für die Last stammen aus Schritt 4; Redundanz fügt Knoten hinzu, damit "
        "die Last auch bei Ausfall eines Knotens bedient wird. Die Replikate werden "
        "gleichmäßig auf die Knoten verteilt.",
    "Only the replicas the load needs; a failed node drops users.":
        "Nur die Replikate, die die Last braucht; fällt ein Knoten aus, gehen Nutzer verloren.",
    "One node more than the load needs: the load is still served with one node lost.":
        "Ein Knoten mehr, als die Last braucht: Die Last wird auch bei Ausfall eines Knotens "
        "bedient.",
    "Twice the nodes and replicas of the load: half the nodes may fail.":
        "Doppelt so viele Knoten und Replikate wie für die Last: Die Hälfte der Knoten darf "
        "ausfallen.",
    "Replicas for the load": "Replikate für die Last",
    "Replicas with availability": "Replikate mit Verfügbarkeit",
    "Replicas per node": "Replikate je Knoten",
    "Nodes per replica": "Knoten je Replikat",
    "Autoscaling range": "Autoskalierungsbereich",
    "Model storage": "Modellspeicher",
    "Nodes load the weights from this storage class when they start; it sets the cold-start "
    "time.":
        "Knoten laden die Gewichte beim Start aus dieser Speicherklasse; sie bestimmt die "
        "Kaltstartzeit.",
    "Scale": "Skalierung",
    "When a node fails": "Bei Ausfall eines Knotens",
    "Each box is a node, each square a GPU slot; squares of one colour run one replica, grey "
    "slots are free.":
        "Jeder Kasten ist ein Knoten, jedes Quadrat ein GPU-Steckplatz; Quadrate einer Farbe "
        "bilden ein Replikat, graue Steckplätze sind frei.",
    "{name} – {read} GB/s read per node": "{name} – {read} GB/s Lesen je Knoten",
    "{n} x {server}, {gpus} GPUs each": "{n} x {server}, je {gpus} GPUs",
    "up to {n}": "bis zu {n}",
    "… and {n} more nodes": "… und {n} weitere Knoten",
    "Redundancy {name}": "Redundanz {name}",
    # === infrastructure (app/ui/pages/infrastructure.py) ========================================
    "Direct liquid cooling": "Direkte Flüssigkühlung",
    "Rear-door heat exchanger": "Rücktür-Wärmetauscher",
    "Annual energy": "Energie pro Jahr",
    "Racks, power, cooling, feeds, networks, storage and cost around the replicas. Empty "
    "fields use the catalog defaults; prices are indicative and dated.":
        "Racks, Stromversorgung, Kühlung, Einspeisungen, Netze, Speicher und Kosten rund um "
        "die Replikate. Leere Felder verwenden die Vorgaben des Katalogs; Preise sind "
        "indikativ und datiert.",
    "Site": "Standort",
    "From the server (liquid-cooled servers: direct liquid)":
        "Vom Server (ggf. direkte Flüssigkühlung)",
    "Air": "Luft",
    "How the racks are cooled; it sets the rack power limit and the PUE.":
        "Wie die Racks gekühlt werden; bestimmt die Leistungsgrenze je Rack und den PUE.",
    "Rack power limit": "Leistungsgrenze je Rack",
    "Most power one rack may draw.": "Höchste Leistung, die ein Rack aufnehmen darf.",
    "Facility power divided by IT power.":
        "Leistung des Rechenzentrums geteilt durch die IT-Leistung.",
    "Feed voltage": "Einspeisespannung",
    "Line-to-line voltage of the three-phase feeds.":
        "Außenleiterspannung der Drehstrom-Einspeisungen.",
    "PDU rating": "PDU-Nennstrom",
    "Current rating of one rack PDU.": "Nennstrom einer Rack-PDU.",
    "A/B feeds": "Einspeisung A/B",
    "Two independent feeds per rack; each must carry the whole rack.":
        "Zwei unabhängige Einspeisungen je Rack; jede muss das ganze Rack tragen.",
    "Average load": "Mittlere Auslastung",
    "Average load as a share of the peak (0 to 1).":
        "Mittlere Auslastung als Anteil der Spitzenlast (0 bis 1).",
    "Electricity price": "Strompreis",
    "Price of one kWh.": "Preis einer kWh.",
    "Colocation": "Colocation-Gebühr",
    "Colocation fee per kW of IT power and month.":
        "Colocation-Gebühr je kW IT-Leistung und Monat.",
    "USD/kW/month": "USD/kW/Monat",
    "Grid CO2e factor": "CO2e-Faktor Strom",
    "Emissions of the site's electricity.": "Emissionen des Stroms am Standort.",
    "Years": "Jahre",
    "Years for the total cost of ownership.": "Jahre für die Gesamtkosten (TCO).",
    "Scale-out fabric": "Scale-out-Fabric",
    "Add a scale-out fabric even when every replica fits in one node.":
        "Ein Scale-out-Fabric auch dann vorsehen, wenn jedes Replikat in einen Knoten passt.",
    "Power, cooling and feeds": "Leistung, Kühlung und Einspeisung",
    "Power breakdown": "Aufteilung der Leistung",
    "Compute nodes": "Rechenknoten",
    "Cooling and facility overhead": "Kühlung und Gebäudetechnik",
    "Cost (indicative)": "Kosten (Richtwert)",
    "Rack elevation": "Rackbelegung",
    "Node topology": "Knotentopologie",
    "Ports in use": "Belegte Ports",
    "Export PNG…": "PNG exportieren…",
    "Export SVG…": "SVG exportieren…",
    "Export topology": "Topologie exportieren",
    "{n} ({compute} compute, {network} network), limit {kw} per rack":
        "{n} ({compute} Rechen-, {network} Netzwerk-Racks), Grenze {kw} je Rack",
    "Power per node": "Leistung je Knoten",
    "{it} (compute {compute}, network {network})": "{it} (Rechnen {compute}, Netzwerk {network})",
    "{kw} at PUE {pue}": "{kw} bei PUE {pue}",
    "{btu} BTU/h, {tons} tons of refrigeration": "{btu} BTU/h, {tons} Kältetonnen",
    "{kind}: air {cfm} CFM, coolant {lpm} L/min": "{kind}: Luft {cfm} CFM, Kühlmittel {lpm} L/min",
    "{v} V three-phase; worst rack {a} A per feed; {pdus} PDUs of {rating} A":
        "{v} V Drehstrom; ungünstigstes Rack {a} A je Einspeisung; {pdus} PDUs zu {rating} A",
    "CO2e per year": "CO2e pro Jahr",
    "not computed (set the grid factor)":
        "nicht berechnet (CO2e-Faktor Strom angeben)",
    "{tiers} tiers: {leaves} leaf, {spines} spine, {cores} core":
        "{tiers} Ebenen: {leaves} Leaf, {spines} Spine, {cores} Core",
    "{cables} cables": "{cables} Kabel",
    "{n} transceivers": "{n} Transceiver",
    "total": "gesamt",
    "'{tier}' tier, {read} GB/s read per node":
        "Speicherklasse '{tier}', {read} GB/s Lesen je Knoten",
    "estimated": "geschätzt",
    "Capital (indicative)": "Investition (Richtwert)",
    "Running per year": "Laufend pro Jahr",
    "Total over {years} years": "Gesamt über {years} Jahre",
    "Per million output tokens": "Je Million Ausgabe-Tokens",
    # what the engine's infrastructure result names (shown through t(): the cooling kind,
    # networks, storage tiers and purposes, cost items)
    "air": "Luftkühlung",
    "rdhx": "Rücktür-Wärmetauscher",
    "dlc": "Direkte Flüssigkühlung",
    "front-end": "Front-End",
    "storage": "Speicher",
    "front-end and storage": "Front-End und Speicher",
    "compute fabric": "Compute-Fabric",
    "out-of-band": "Out-of-Band",
    "GPU-direct / hot": "GPU-Direct / heiß",
    "hot": "heiß",
    "weights loaded at cold start": "beim Kaltstart geladene Gewichte",
    "model repository (versions x copies)": "Modell-Repository (Versionen x Kopien)",
    "request logs": "Anfrage-Protokolle",
    "monitoring metrics": "Monitoring-Metriken",
    "training data set": "Trainingsdatensatz",
    "training checkpoints (retained copies)": "Trainings-Checkpoints (aufbewahrte Kopien)",
    "Network: switches, NICs, cables and optics (estimated)":
        "Netzwerk: Switches, NICs, Kabel und Optiken (geschätzt)",
    "Storage (usable TB)": "Speicher (nutzbare TB)",
    "Liquid cooling per rack (CDU, manifolds)": "Flüssigkühlung je Rack (CDU, Verteiler)",
    "Heat": "Wärme",
    # === training and workloads (app/ui/pages/training.py) =====================================
    "Training and workloads": "Training und Workloads",
    "Training, fine-tuning, retrieval (RAG) and CPU comparisons are shown here when the "
    "scenario has them: choose fine-tuning or pre-training as the workload kind in Step 1, or "
    "add a 'rag' or 'cpu' block to the scenario file.":
        "Training, Feinabstimmung, Retrieval (RAG) und CPU-Vergleiche erscheinen hier, wenn das "
        "Szenario sie enthält: Wählen Sie in Schritt 1 Feinabstimmung oder Vortraining als Art "
        "der Last, oder ergänzen Sie die Szenariodatei um einen Block 'rag' oder 'cpu'.",
    "Training setup": "Trainingskonfiguration",
    "Full training, or adapters on a frozen model (LoRA, QLoRA).":
        "Vollständiges Training oder Adapter auf einem eingefrorenen Modell (LoRA, QLoRA).",
    "Full training": "Vollständiges Training",
    "Every weight is trained (16 bytes of state per parameter with mixed-precision AdamW).":
        "Jedes Gewicht wird trainiert (16 Byte Zustand je Parameter mit AdamW in gemischter "
        "Genauigkeit).",
    "The base weights stay frozen in 16 bit; small adapters are trained.":
        "Die Basisgewichte bleiben in 16 Bit eingefroren; kleine Adapter werden trainiert.",
    "The base weights stay frozen in 4 bit; small adapters are trained.":
        "Die Basisgewichte bleiben in 4 Bit eingefroren; kleine Adapter werden trainiert.",
    "Optimizer": "Optimierer",
    "The optimizer sets the bytes of state per trained parameter.":
        "Der Optimierer bestimmt die Byte an Zustand je trainiertem Parameter.",
    "ZeRO stage": "ZeRO-Stufe",
    "How far model states are sharded over the data-parallel GPUs.":
        "Wie weit die Modellzustände über die datenparallelen GPUs verteilt werden.",
    "(search: the lowest that fits)": "(Suche: die niedrigste, die passt)",
    "0 (no sharding)": "0 (keine Verteilung)",
    "1 (optimizer states sharded)": "1 (Optimierer-Zustände verteilt)",
    "2 (and gradients; FSDP SHARD_GRAD_OP)": "2 (dazu Gradienten; FSDP SHARD_GRAD_OP)",
    "3 (and weights; FSDP full shard)": "3 (dazu Gewichte; FSDP Full Shard)",
    "Data parallel": "Datenparallelität",
    "Model copies training on different data; empty: the search chooses.":
        "Modellkopien, die auf verschiedenen Daten trainieren; leer: die Suche wählt.",
    "Tensor parallel": "Tensor-Parallelität",
    "GPUs splitting every layer; empty: the search chooses.":
        "GPUs, auf die jede Schicht aufgeteilt wird; leer: die Suche wählt.",
    "Pipeline parallel": "Pipeline-Parallelität",
    "Stages of consecutive layers; empty: the search chooses.":
        "Stufen aufeinanderfolgender Schichten; leer: die Suche wählt.",
    "Micro-batch": "Micro-Batch",
    "Sequences per GPU in one forward and backward pass.":
        "Sequenzen je GPU in einem Vorwärts- und Rückwärtsdurchlauf.",
    "sequences": "Sequenzen",
    "Sequence length": "Sequenzlänge",
    "Tokens per training sequence.": "Tokens je Trainingssequenz.",
    "Tokens of the training run; empty: the default for the workload.":
        "Tokens des Trainingslaufs; leer: die Vorgabe für die Last.",
    "Activation recompute": "Neuberechnung der Aktivierungen",
    "Recompute activations in the backward pass to save memory.":
        "Aktivierungen im Rückwärtsdurchlauf neu berechnen, um Speicher zu sparen.",
    "(search: the least that fits)": "(Suche: die geringste, die passt)",
    "Selective (attention)": "Selektiv (Attention)",
    "Full (every layer)": "Vollständig (jede Schicht)",
    "full (every layer)": "vollständig (jede Schicht)",
    "selective (attention)": "selektiv (Attention)",
    "none (activations kept)": "keine (Aktivierungen bleiben erhalten)",
    "Train within": "Trainieren innerhalb von",
    "Wall-clock days the run must finish in; the search adds GPUs to meet it.":
        "Tage (Gesamtlaufzeit), in denen der Lauf fertig sein muss; die Suche fügt GPUs hinzu, "
        "um das zu erreichen.",
    "days": "Tage",
    "{d} days": "{d} Tage",
    "FP32 gradients": "FP32-Gradienten",
    "Keep gradients in FP32 (18 bytes per parameter with AdamW).":
        "Gradienten in FP32 halten (18 Byte je Parameter mit AdamW).",
    "Usable: {gb} GB": "Nutzbar: {gb} GB",
    "Time to train (wall clock)": "Trainingsdauer (Gesamtlaufzeit)",
    "Time to train (compute)": "Trainingsdauer (reine Rechenzeit)",
    "chosen: {n} GPUs": "gewählt: {n} GPUs",
    "target: {d} days": "Ziel: {d} Tage",
    "search: {n}": "Suche: {n}",
    "default: {n}": "Vorgabe: {n}",
    "{gb} per GPU of {usable} usable: {fits}.": "{gb} je GPU von {usable} nutzbar: {fits}.",
    "Target of {d} days: {met}.": "Ziel von {d} Tagen: {met}.",
    "found by the search": "von der Suche gefunden",
    "{n} x {gpu} on {nodes} node(s) ({how})": "{n} x {gpu} auf {nodes} Knoten ({how})",
    "data {d} x tensor {t} x pipeline {p}, ZeRO {z}":
        "Daten {d} x Tensor {t} x Pipeline {p}, ZeRO {z}",
    "Trained parameters": "Trainierte Parameter",
    "{n} billion of {total} billion": "{n} Milliarden von {total} Milliarden",
    "Model states per GPU": "Modellzustände je GPU",
    "Activations per GPU": "Aktivierungen je GPU",
    "Global batch": "Globaler Batch",
    "{n} sequences ({tokens} tokens), {acc} accumulation steps":
        "Sequenzen: {n} ({tokens} Tokens), Akkumulationsschritte: {acc}",
    "GPU-hours": "GPU-Stunden",
    "One optimizer step": "Ein Optimierer-Schritt",
    "Gradient all-reduce (data parallel)": "Gradienten-All-Reduce (Datenparallelität)",
    "Tensor-parallel collectives": "Kollektive Operationen der Tensor-Parallelität",
    "Pipeline sends": "Pipeline-Übertragungen",
    "Pipeline bubble": "Pipeline-Blase",
    "Communication hidden behind compute": "Kommunikation durch Rechnen verdeckt",
    "Checkpoint size": "Checkpoint-Größe",
    "Save time": "Speicherdauer",
    "Cluster MTBF": "MTBF des Clusters",
    "Time lost to checkpoints and failures": "Zeitverlust durch Checkpoints und Ausfälle",
    "Checkpoints retained": "Aufbewahrte Checkpoints",
    "Storage (checkpoints and dataset)": "Speicher (Checkpoints und Datensatz)",
    "{docs} documents, {tokens} tokens": "{docs} Dokumente, {tokens} Tokens",
    "Chunks": "Abschnitte (Chunks)",
    "{params} million parameters, {dim} dimensions, on {n} x {gpu}":
        "{params} Millionen Parameter, {dim} Dimensionen, auf {n} x {gpu}",
    "Indexing time": "Indexierungsdauer",
    "Index in memory": "Index im Speicher",
    "Index and text on disk": "Index und Text auf dem Datenträger",
    "Retrieval latency": "Retrieval-Latenz",
    "Time to first token with retrieval": "Zeit bis zum ersten Token mit Retrieval",
    "{with_r} (without: {without}; {tokens} prompt tokens added)":
        "{with_r} (ohne: {without}; {tokens} Prompt-Tokens hinzugefügt)",
    "{share} % of the corpus per day: {hours} GPU-hours per day":
        "{share} % des Korpus pro Tag: {hours} GPU-Stunden pro Tag",
    "CPU inference compared with the GPU option": "CPU-Inferenz im Vergleich zur GPU-Option",
    "At the scenario's load": "Bei der Last des Szenarios",
    "{n} tokens/s": "{n} Tokens/s",
    "Memory bandwidth": "Speicherbandbreite",
    "{gb} GB/s peak, {share} % reached": "{gb} GB/s Spitze, {share} % erreicht",
    # === report in the window (app/ui/pages/report.py) ==========================================
    "Report": "Bericht",
    "Export PDF…": "PDF exportieren…",
    "Write the PDF report, signed with your identity, with the scenario and result attached.":
        "Schreibt den PDF-Bericht, signiert mit Ihrer Identität, mit Szenario und Ergebnis als "
        "Anhang.",
    "AI Sizer {version}, catalogs {catalogs}": "AI Sizer {version}, Kataloge {catalogs}",
    "{replicas} replicas of {n} x {gpu} (tensor parallel {t}, pipeline {p}) with {w} weights "
    "and {kv} KV cache, serving {model}; {nodes} x {server}.":
        "Replikate: {replicas}, je {n} x {gpu} (Tensor-Parallelität {t}, Pipeline {p}), "
        "Gewichte in {w} und KV-Cache in {kv}, für {model}; {nodes} x {server}.",
    "at most {v}": "höchstens {v}",
    "at least {v}": "mindestens {v}",
    "at most {v} usable": "höchstens {v} nutzbar",
    "Expected": "Erwartet",
    "State": "Status",
    "Users per replica within the targets": "Nutzer je Replikat innerhalb der Ziele",
    "Figure": "Kennzahl",
    "meets the target": "erreicht das Ziel",
    "still misses the target": "verfehlt das Ziel weiterhin",
    "Levers": "Stellhebel",
    "No change needed: every target is met.": "Keine Änderung nötig: Alle Ziele sind erreicht.",
    "None.": "Keine.",
    "Overridden": "Überschrieben",
    # === assumptions (app/ui/pages/assumptions.py) ==============================================
    "Assumptions": "Annahmen",
    "Every efficiency factor and default behind the result, with its source. The serving "
    "engine's efficiency factors (shaded) can be changed for this scenario: double-click a "
    "value, type a new one, or clear it to go back to the catalog value. Overridden values are "
    "saved in the scenario, shown in bold and listed in the report.":
        "Jeder Effizienzfaktor und jede Vorgabe hinter dem Ergebnis, mit Quelle. Die "
        "Effizienzfaktoren der Serving-Engine (farbig hinterlegt) lassen sich für dieses Szenario "
        "ändern: Doppelklicken Sie auf einen Wert und geben Sie einen neuen ein, oder leeren Sie "
        "ihn, um zum Katalogwert zurückzukehren. Überschriebene Werte werden im Szenario "
        "gespeichert, fett dargestellt und im Bericht aufgeführt.",
    "Memory bandwidth efficiency, weights": "Effizienz der Speicherbandbreite, Gewichte",
    "Memory bandwidth efficiency, KV cache": "Effizienz der Speicherbandbreite, KV-Cache",
    "Compute efficiency, decode": "Recheneffizienz, Decode",
    "Compute efficiency, prefill": "Recheneffizienz, Prefill",
    "Overhead per decode step": "Verwaltungsaufwand je Decode-Schritt",
    "Overhead per layer and step": "Verwaltungsaufwand je Schicht und Schritt",
    "Fixed latency per request": "Feste Latenz je Anfrage",
    "Latency per all-reduce": "Latenz je All-Reduce",
    "Interconnect efficiency": "Effizienz des Interconnects",
    "Share of GPU memory the engine uses": "Anteil des GPU-Speichers, den die Engine nutzt",
    "Batch limit (max_num_seqs)": "Batch-Grenze (max_num_seqs)",
    "Tokens per scheduler step": "Tokens je Scheduler-Schritt",
    "KV cache block size": "Blockgröße des KV-Cache",
    "Runtime memory per GPU": "Speicher der Laufzeitumgebung je GPU",
    "CUDA graph memory per GPU": "Speicher für CUDA-Graphen je GPU",
    "GPU memory bandwidth": "Speicherbandbreite der GPU",
    "Bits per weight": "Bit je Gewicht",
    "TTFT target": "TTFT-Ziel",
    "Tokens/s per user target": "Ziel Tokens/s je Nutzer",
    "Peak compute, {precision}": "Spitzenrechenleistung, {precision}",
    "Inter-token latency [ms]": "Latenz zwischen Tokens [ms]",
    "Total output tokens/s, one replica": "Ausgabe-Tokens/s gesamt, ein Replikat",
    "Measured metric": "Gemessene Größe",
    "Measured value": "Messwert",
    "Concurrent users on one replica": "Gleichzeitige Nutzer auf einem Replikat",
    "Reset to catalog values": "Auf Katalogwerte zurücksetzen",
    "Calibrate from a measurement": "Anhand einer Messung kalibrieren",
    "Calibrate": "Kalibrieren",
    "overridden": "überschrieben",
    "Double-click to override this factor for this scenario":
        "Doppelklicken, um diesen Faktor für dieses Szenario zu überschreiben",
    "Select a row to read its full source.":
        "Wählen Sie eine Zeile, um ihre vollständige Quelle zu lesen.",
    "'{value}' is not a number.": "'{value}' ist keine Zahl.",
    "Override {factor}": "{factor} überschreiben",
    "The model predicts {value} at {users} users now.":
        "Das Modell sagt derzeit {value} bei {users} Nutzern voraus.",
    "All efficiencies were scaled together by one factor (and the overheads divided by it) to "
    "match the measurement. Fitted values: {values}.":
        "Alle Effizienzen wurden gemeinsam mit einem Faktor skaliert (und der "
        "Verwaltungsaufwand durch ihn geteilt), um die Messung zu treffen. Angepasste Werte: "
        "{values}.",
    "Check: the model now predicts {value} at {users} users (measured {measured}).":
        "Kontrolle: Das Modell sagt jetzt {value} bei {users} Nutzern voraus (gemessen "
        "{measured}).",
    # === compare (app/ui/pages/compare.py, app/ui/compare_model.py) =============================
    "Compare": "Vergleich",
    "Pin the current configuration, change the scenario and pin again, or pin saved scenario "
    "files: up to four options side by side. A pinned option keeps the result it had when it "
    "was pinned.":
        "Heften Sie die aktuelle Konfiguration an, ändern Sie das Szenario und heften Sie "
        "erneut an, oder heften Sie gespeicherte Szenariodateien an: bis zu vier Optionen "
        "nebeneinander. Eine angeheftete Option behält das Ergebnis, das sie beim Anheften "
        "hatte.",
    "Pin current configuration": "Aktuelle Konfiguration anheften",
    "Pin a saved scenario…": "Gespeichertes Szenario anheften…",
    "Pin a saved scenario": "Gespeichertes Szenario anheften",
    "Nothing pinned yet. Pin the current configuration to start a comparison.":
        "Noch nichts angeheftet. Heften Sie die aktuelle Konfiguration an, um einen Vergleich "
        "zu beginnen.",
    "Tokens per second per user": "Tokens pro Sekunde je Nutzer",
    "Aggregate throughput of one replica": "Gesamtdurchsatz eines Replikats",
    "Concurrent users per replica": "Gleichzeitige Nutzer je Replikat",
    "Cannot pin this scenario:": "Dieses Szenario kann nicht angeheftet werden:",
    "Unpin {letter}": "{letter} lösen",
    "At most {n} options can be compared; unpin one first.":
        "Höchstens {n} Optionen lassen sich vergleichen; lösen Sie zuerst eine.",
    "GPU x count per replica": "GPU x Anzahl je Replikat",
    "Parallelism": "Parallelität",
    "{t} x {p} (tensor x pipeline)": "{t} x {p} (Tensor x Pipeline)",
    "Precision / KV cache": "Zahlenformat / KV-Cache",
    "VRAM per GPU (used / usable)": "VRAM je GPU (belegt / nutzbar)",
    "Max users per replica": "Max. Nutzer je Replikat",
    "none within the targets": "keine innerhalb der Ziele",
    "Tokens/s per user at load": "Tokens/s je Nutzer unter Last",
    "{speed} at {users} users": "{speed} bei {users} Nutzern",
    "TTFT at load": "TTFT unter Last",
    "Saturation throughput": "Durchsatz bei Sättigung",
    "GPUs total": "GPUs insgesamt",
    "Indicative capital cost": "Indikative Investitionskosten",
    # === dialogs (app/ui/dialogs) ===============================================================
    "About AI Sizer": "Über AI Sizer",
    "Offline sizing of AI infrastructure for large language models.":
        "Offline-Dimensionierung von KI-Infrastruktur für große Sprachmodelle.",
    "AI Sizer works offline: it never opens a network connection, and your scenarios stay on "
    "this computer.":
        "AI Sizer arbeitet offline: Es baut nie eine Netzwerkverbindung auf, und Ihre Szenarien "
        "bleiben auf diesem Computer.",
    "Sizing method": "Sizing-Methode",
    "The description of the sizing method was not found at {path}.":
        "Die Beschreibung der Sizing-Methode wurde unter {path} nicht gefunden.",
    "Preferences": "Einstellungen",
    "&Language:": "&Sprache:",
    "The window changes language at once; saved scenarios and reports are not affected.":
        "Das Fenster wechselt die Sprache sofort; gespeicherte Szenarien und Berichte bleiben "
        "unverändert.",
    "Import model folder": "Modellordner importieren",
    "AI Sizer reads the folder's config.json and the headers of its safetensors files; no "
    "weights are loaded and nothing is downloaded. Check what was read, then save.":
        "AI Sizer liest die config.json des Ordners und die Header seiner safetensors-Dateien; "
        "es werden keine Gewichte geladen und nichts heruntergeladen. Prüfen Sie, was gelesen "
        "wurde, und speichern Sie dann.",
    "Model folder": "Modellordner",
    "Choose…": "Auswählen…",
    "Pick a folder that holds the model's config.json.":
        "Wählen Sie einen Ordner, der die config.json des Modells enthält.",
    "Catalog id": "Katalog-ID",
    "The id the model gets in your catalog; empty: from the folder name.":
        "Die ID, die das Modell in Ihrem Katalog erhält; leer: aus dem Ordnernamen.",
    "Save to my catalog": "In meinem Katalog speichern",
    "Choose a model folder": "Modellordner auswählen",
    "Check before saving:": "Vor dem Speichern prüfen:",
    "A model with the id {id} is already in the catalog; saving replaces it for you.":
        "Ein Modell mit der ID {id} ist bereits im Katalog; Speichern ersetzt es für Sie.",
    "Import model": "Modell importieren",
    "Family": "Familie",
    "Attention heads": "Attention-Heads",
    "Sliding window": "Sliding Window",
    "Experts": "Experten",
    "Weights format": "Gewichtsformat",
    "Weights on disk": "Gewichte auf dem Datenträger",
    "Files read": "Gelesene Dateien",
    "{k} of {e} per token": "{k} von {e} je Token",
    "none (dense)": "keine (dicht)",
    "{layers}, width {width:,}": "{layers}, Breite {width:,}",
    "{heads} query, {kv} KV, {dim} wide": "{heads} Query, {kv} KV, {dim} breit",
    "unknown (bf16 assumed)": "unbekannt (bf16 angenommen)",
    "unknown": "unbekannt",
    "{tokens:,} tokens on {local} of {layers} layers":
        "{tokens:,} Tokens auf {local} von {layers} Schichten",
    # File > Export report, signing identity, Help > Verify report (report_dialogs.py)
    "Export report": "Bericht exportieren",
    "File": "Datei",
    "Language": "Sprache",
    "Paper": "Papier",
    "Sign with my identity": "Mit meiner Identität signieren",
    "Create signing identity…": "Signatur-Identität erstellen…",
    "Create signing identity": "Signatur-Identität erstellen",
    "Repeat passphrase": "Passphrase wiederholen",
    "Enter a name, an organisation and an email address.":
        "Geben Sie einen Namen, eine Organisation und eine E-Mail-Adresse ein.",
    "The passphrase needs at least 8 characters.":
        "Die Passphrase muss mindestens 8 Zeichen lang sein.",
    "The two passphrases differ.": "Die beiden Passphrasen stimmen nicht überein.",
    "Choose a file name ending in .pdf.": "Wählen Sie einen Dateinamen mit der Endung .pdf.",
    "The scenario has no result to report yet.":
        "Für das Szenario liegt noch kein Ergebnis für einen Bericht vor.",
    "Cannot write {path}: {reason}": "{path} kann nicht geschrieben werden: {reason}",
    "Verify report": "Bericht prüfen",
    "Trust": "Vertrauen",
    "Trusted CA certificates (PEM), optional": "Vertrauenswürdige CA-Zertifikate (PEM), optional",
    "Verify": "Prüfen",
    "Open its scenario": "Zugehöriges Szenario öffnen",
    "Signed by {name} ({organisation}) on {time}":
        "Signiert von {name} ({organisation}) am {time}",
    "Certificate fingerprint (SHA-256): {fp}": "Fingerabdruck des Zertifikats (SHA-256): {fp}",
    # the outcome of a check (app/report/verify.py; "not signed" is in de_report)
    "valid and trusted": "gültig und vertrauenswürdig",
    "intact but signer not trusted": "unverändert, aber Unterzeichner nicht vertrauenswürdig",
    "modified after signing": "nach dem Signieren verändert",
    "the signed file is damaged and cannot be parsed":
        "die signierte Datei ist beschädigt und kann nicht gelesen werden",
    "the PDF carries no signature": "das PDF trägt keine Signatur",
    "the file was changed or extended after the signature (the signature no longer covers the "
    "whole file)":
        "die Datei wurde nach der Signatur geändert oder erweitert (die Signatur deckt nicht "
        "mehr die ganze Datei ab)",
    "the signed bytes do not match the signature": "die signierten Bytes passen nicht zur Signatur",
    "the signature covers the whole file and the signer is trusted":
        "die Signatur deckt die ganze Datei ab, und der Unterzeichner ist vertrauenswürdig",
    "the file is unchanged since signing, but no trust anchor vouches for the signer's "
    "certificate":
        "die Datei ist seit dem Signieren unverändert, aber kein Vertrauensanker bürgt für das "
        "Zertifikat des Unterzeichners",
    # === input fields (app/ui/fields.py) ========================================================
    "Keep at least one format allowed.": "Mindestens ein Format muss erlaubt bleiben.",
    # === topology and racks (app/ui/topology.py, app/ui/racks.py) ===============================
    "Users send requests to the load balancer": "Nutzer senden Anfragen an den Load Balancer",
    "Load balancer": "Load Balancer",
    "Spreads requests over the replicas; private endpoint":
        "Verteilt Anfragen auf die Replikate; privater Endpunkt",
    "ports in use": "Ports belegt",
    "Leaf switch {n} ({switch}); rail {n}": "Leaf-Switch {n} ({switch}); Rail {n}",
    "Spine switch {n} ({switch})": "Spine-Switch {n} ({switch})",
    "Rack {n}: {nodes} nodes, {kw} kW": "Rack {n}: {nodes} Knoten, {kw} kW",
    "Rack {n}: {nodes} nodes": "Rack {n}: {nodes} Knoten",
    "Rack {n}: {nodes} node, {kw} kW": "Rack {n}: {nodes} Knoten, {kw} kW",
    "Rack {n}: {nodes} node": "Rack {n}: {nodes} Knoten",
    "{name}\nRack {rack} (failure domain)\n{gpus} GPU; {scale_up}":
        "{name}\nRack {rack} (Ausfalldomäne)\n{gpus} GPU; {scale_up}",
    "... and {n} more rack": "... und {n} weiteres Rack",
    "{name}\nRack {rack} (failure domain)\n{gpus} GPUs; {scale_up}":
        "{name}\nRack {rack} (Ausfalldomäne)\n{gpus} GPUs; {scale_up}",
    "Node {n}": "Knoten {n}",
    "Empty GPU slot": "Leerer GPU-Steckplatz",
    "{tb} TB on the '{tier}' tier, {read} GB/s read per node":
        "{tb} TB in der Speicherklasse '{tier}', {read} GB/s Lesen je Knoten",
    "... and {n} more racks": "... und {n} weitere Racks",
    "Rack {n}: {used} of {units} U, {kw} kW of {limit} kW":
        "Rack {n}: {used} von {units} HE, {kw} kW von {limit} kW",
    # --- rack failure (app/engine/narrative.py, app/ui/pages/redundancy.py)
    "All nodes are in one rack: when it fails, nothing serves until it is repaired.":
        "Alle Knoten stehen in einem Rack: Fällt es aus, wird bis zur Reparatur nichts "
        "bedient.",
    "With one rack down, {left:,} of {replicas:,} replicas still serve the full load ({load:,} "
    "needed).":
        "Bei Ausfall eines Racks bedienen {left:,} von {replicas:,} Replikaten weiterhin die volle "
        "Last ({load:,} benötigt).",
    "With one rack down, {left:,} of {replicas:,} replicas serve about {share:.0%} of the peak "
    "load; the rest queue.":
        "Bei Ausfall eines Racks bedienen {left:,} von {replicas:,} Replikaten etwa {share:.0%} "
        "der Spitzenlast; der Rest wartet in der Warteschlange.",
    "Replicas are spread across the {racks:,} racks (at most {fullest:,} of the {nodes:,} nodes in "
    "one), so the load also survives the loss of a whole rack.":
        "Die Replikate sind über die {racks:,} Racks verteilt (höchstens {fullest:,} der {nodes:,} "
        "Knoten in einem), daher wird die Last auch bei Ausfall eines ganzen Racks bedient.",
    "2N doubles the nodes, but one rack holds {fullest:,} of the {nodes:,} nodes: spread them "
    "evenly over two or more racks so that the other half still serves the load when a rack "
    "fails.":
        "2N verdoppelt die Knoten, aber ein Rack enthält {fullest:,} der {nodes:,} Knoten: "
        "Verteilen Sie sie gleichmäßig auf zwei oder mehr Racks, damit die andere Hälfte die "
        "Last weiterhin bedient, wenn ein Rack ausfällt.",
    "N+1 counts nodes: it covers one node down, not a rack of {fullest:,} nodes. To survive a "
    "rack failure, use 2N with the nodes spread evenly over two or more racks, or add one "
    "rack's worth of spare nodes ({fullest:,} more).":
        "N+1 zählt Knoten: Es deckt den Ausfall eines Knotens ab, nicht den eines Racks mit "
        "{fullest:,} Knoten. Um einen Rack-Ausfall zu überstehen, verwenden Sie 2N mit "
        "gleichmäßig auf zwei oder mehr Racks verteilten Knoten, oder fügen Sie Reserveknoten "
        "im Umfang eines Racks hinzu ({fullest:,} weitere).",
    "A rack failure takes down up to {fullest:,} of the {nodes:,} nodes and stops the job like "
    "any other failure; it resumes from the last checkpoint once they are repaired or "
    "replaced.":
        "Ein Rack-Ausfall legt bis zu {fullest:,} der {nodes:,} Knoten lahm und stoppt den Job wie "
        "jeder andere Ausfall; er setzt am letzten Checkpoint fort, sobald sie repariert oder "
        "ersetzt sind.",
    "When a rack fails": "Bei Ausfall eines Racks",
    "Racks from the Infrastructure step: {racks}; nodes in the fullest rack: {nodes}. "
    "Replicas are spread evenly over the nodes and across the racks.":
        "Racks aus dem Schritt Infrastruktur: {racks}; Knoten im vollsten Rack: {nodes}. Die "
        "Replikate werden gleichmäßig auf die Knoten und über die Racks verteilt.",
    # --- values and units (German formatting)
    "{link}, {gb_s:,g} GB/s per GPU per direction, {gpus} GPUs per node":
        "{link}, {gb_s:,g} GB/s je GPU und Richtung, {gpus} GPUs je Knoten",
    "No price for {item}.": "Kein Preis für {item}.",
    # --- validation problems and import warnings ================================================
    # app/domain/problems.py: pydantic's refusals (English = pydantic's own text) and the glue
    "(got {value})": "(angegeben: {value})",
    "{first} or {second}": "{first}; oder: {second}",
    "Field required": "Pflichtfeld fehlt",
    "Extra inputs are not permitted": "Unbekanntes Feld; zusätzliche Felder sind nicht erlaubt",
    "Input should be a valid integer, unable to parse string as an integer":
        "Der Wert muss eine ganze Zahl sein; der Text lässt sich nicht als ganze Zahl lesen",
    "Input should be a valid integer": "Der Wert muss eine ganze Zahl sein",
    "Input should be a valid integer, got a number with a fractional part":
        "Der Wert muss eine ganze Zahl sein, keine Zahl mit Nachkommastellen",
    "Input should be a valid number, unable to parse string as a number":
        "Der Wert muss eine Zahl sein; der Text lässt sich nicht als Zahl lesen",
    "Input should be a valid number": "Der Wert muss eine Zahl sein",
    "Input should be a finite number": "Der Wert muss eine endliche Zahl sein",
    "Input should be greater than {gt}": "Der Wert muss größer als {gt} sein",
    "Input should be greater than or equal to {ge}": "Der Wert muss mindestens {ge} sein",
    "Input should be less than or equal to {le}": "Der Wert darf höchstens {le} sein",
    "Input should be {choices} or {last}": "Der Wert muss {choices} oder {last} sein",
    "Input should be {expected}": "Der Wert muss {expected} sein",
    "Input should be a valid string": "Der Wert muss ein Text sein",
    "String should have at least {n} character": "Der Text muss mindestens {n} Zeichen lang sein",
    "String should have at least {n} characters": "Der Text muss mindestens {n} Zeichen lang sein",
    "String should have at most {n} character": "Der Text darf höchstens {n} Zeichen lang sein",
    "String should have at most {n} characters": "Der Text darf höchstens {n} Zeichen lang sein",
    "Input should be a valid boolean, unable to interpret input":
        "Der Wert muss wahr oder falsch sein (true oder false); dieser Wert lässt sich nicht so "
        "lesen",
    "Input should be a valid boolean": "Der Wert muss wahr oder falsch sein (true oder false)",
    "Input should be a valid dictionary": "Der Wert muss ein JSON-Objekt sein",
    "Input should be a valid list": "Der Wert muss eine Liste sein",
    "Input should be a valid dictionary or instance of {name}":
        "Der Wert muss ein JSON-Objekt sein (oder ein {name})",
    # app/domain/scenario.py: the scenario's own rules
    "must be between 1 and {max:,} or 'max'": "muss zwischen 1 und {max:,} liegen oder 'max' sein",
    "max_context_tokens ({context:,}) is smaller than prompt_tokens + output_tokens ({total:,}); "
    "raise it or shorten the request":
        "Der maximale Kontext (max_context_tokens = {context:,}) ist kleiner als Eingabe + Ausgabe "
        "(prompt_tokens + output_tokens = {total:,}); erhöhen Sie ihn oder kürzen Sie die Anfrage",
    "gpus_per_replica ({gpus:,}) must equal tensor_parallel x pipeline_parallel ({tensor:,} x "
    "{pipeline:,} = {product:,})":
        "Die GPUs je Replikat (gpus_per_replica = {gpus:,}) müssen dem Produkt aus Tensor- und "
        "Pipeline-Parallelität entsprechen ({tensor:,} x {pipeline:,} = {product:,})",
    "unknown optimizer '{name}'; allowed: {allowed}":
        "unbekannter Optimierer '{name}'; erlaubt: {allowed}",
    "global_batch_size ({batch:,}) is smaller than micro_batch_size x data_parallel ({micro:,} x "
    "{replicas:,}); raise it or use fewer data-parallel replicas":
        "Der globale Batch (global_batch_size = {batch:,}) ist kleiner als Micro-Batch x "
        "Datenparallelität ({micro:,} x {replicas:,}); erhöhen Sie ihn oder verwenden Sie weniger "
        "datenparallele Replikate",
    "overlap_tokens ({overlap:,}) must be smaller than chunk_tokens ({chunk:,})":
        "Die Überlappung (overlap_tokens = {overlap:,}) muss kleiner sein als ein Chunk "
        "(chunk_tokens = {chunk:,})",
    "unknown factor '{name}'; allowed: {allowed}": "unbekannter Faktor '{name}'; erlaubt: {allowed}",
    "factor '{name}' = {number:,} must be a share above 0 and at most 1 (no engine beats the "
    "hardware roofline)":
        "Faktor '{name}' = {number:,} muss ein Anteil über 0 und höchstens 1 sein (keine Engine "
        "übertrifft die Roofline der Hardware)",
    "factor '{name}' = {number:,} s must be between 0 and 1 s":
        "Faktor '{name}' = {number:,} s muss zwischen 0 und 1 s liegen",
    # app/engine/pipeline.py resolve(): what the catalog cannot size
    "'{value}' is not in the precision catalog": "'{value}' steht nicht im Katalog der Zahlenformate",
    "{context:,} exceeds the model's context limit of {limit:,} tokens":
        "{context:,} überschreitet die Kontextgrenze des Modells von {limit:,} Tokens",
    "unknown tier '{tier}'; choose one of {tiers}":
        "unbekannte Speicherklasse '{tier}'; wählen Sie eine von {tiers}",
    # app/api.py: reading a scenario file
    "cannot read scenario file '{path}': {reason}":
        "Die Szenariodatei '{path}' kann nicht gelesen werden: {reason}",
    "scenario file '{path}' is not UTF-8 text (a scenario is a JSON file)":
        "Die Szenariodatei '{path}' ist kein UTF-8-Text (ein Szenario ist eine JSON-Datei)",
    "scenario is not valid JSON: {error} at line {line}, column {column}":
        "Das Szenario ist kein gültiges JSON: {error} in Zeile {line}, Spalte {column}",
    "must be a JSON object": "muss ein JSON-Objekt sein",
    "{version} is not supported; this version reads schema_version 1":
        "{version} wird nicht unterstützt; diese Version liest schema_version 1",
    # app/catalog/hf_import.py: importing a model folder (what a number is needed for)
    "the layer count": "die Zahl der Schichten",
    "the model width": "die Breite des Modells",
    "the number of query heads": "die Zahl der Query-Heads",
    "the MLP width": "die Breite des MLP",
    "the embedding and output-head size": "die Größe von Embedding und Ausgabe-Head",
    "the longest context": "den längsten Kontext",
    "the window of the local attention layers": "das Fenster der lokalen Attention-Schichten",
    "the number of experts": "die Zahl der Experten",
    "the experts each token uses": "die Experten, die jedes Token nutzt",
    "the width of one expert": "die Breite eines Experten",
    "the compressed KV width of MLA": "die komprimierte KV-Breite von MLA",
    "the RoPE part of each MLA head": "den RoPE-Anteil jedes MLA-Heads",
    "the non-RoPE part of each MLA head": "den Nicht-RoPE-Anteil jedes MLA-Heads",
    "the value width of each MLA head": "die Value-Breite jedes MLA-Heads",
    "the number of routed experts": "die Zahl der gerouteten Experten",
    "the local/global layer pattern": "das Muster lokaler und globaler Schichten",
    "the width of the dense MLP layers": "die Breite der dichten MLP-Schichten",
    # app/catalog/hf_import.py: warnings
    "{where} is not given; used {value}, the transformers default for {model_type}.":
        "{where} fehlt; verwendet wurde {value}, der Standardwert von transformers für "
        "{model_type}.",
    "{where} is not given; used {heads} (one KV head per query head, as transformers does).":
        "{where} fehlt; verwendet wurde {heads} (ein KV-Head je Query-Head, wie in "
        "transformers).",
    "{where} (yarn, factor {factor}) extends the context to {extended} tokens; "
    "max_context_tokens keeps max_position_embeddings ({context}), change it by hand if you "
    "serve the longer context.":
        "{where} (yarn, Faktor {factor}) erweitert den Kontext auf {extended} Tokens; "
        "max_context_tokens behält max_position_embeddings ({context}) – ändern Sie den Wert "
        "von Hand, wenn Sie den längeren Kontext bereitstellen.",
    "{where} has {count} entries for {layers} layers; used one global layer in every "
    "{interval} (no_rope_layer_interval).":
        "{where} hat {count} Einträge für {layers} Schichten; verwendet wurde eine globale "
        "Schicht je {interval} (no_rope_layer_interval).",
    "model_type {model_type} is not supported as such; imported its text_config ({inner}).":
        "model_type {model_type} wird als solcher nicht unterstützt; importiert wurde seine "
        "text_config ({inner}).",
    "config.json also describes a vision encoder (vision_config); only the language model is "
    "imported, but the encoder's weights are part of the checkpoint on disk.":
        "config.json beschreibt auch einen Vision-Encoder (vision_config); importiert wird nur "
        "das Sprachmodell, die Gewichte des Encoders gehören aber zum Checkpoint auf der "
        "Festplatte.",
    "{where} is {value}, a format AI Sizer cannot map to its precisions; the weight precision "
    "is unknown, choose precision.weights by hand.":
        "{where} ist {value}, ein Format, das AI Sizer keinem seiner Zahlenformate zuordnen "
        "kann; das Format der Gewichte ist unbekannt, wählen Sie precision.weights von Hand.",
    "The attention weights stay in 16 bit in this checkpoint (quantization_config keeps them "
    "unconverted); sizing all weights in the quantised format slightly underestimates them.":
        "Die Attention-Gewichte bleiben in diesem Checkpoint in 16 Bit (quantization_config "
        "lässt sie unkonvertiert); alle Gewichte im quantisierten Format zu rechnen, "
        "unterschätzt sie leicht.",
    "{file}: kv_cache_quant_algo {algo} is not a KV-cache format AI Sizer knows; choose "
    "precision.kv_cache by hand.":
        "{file}: kv_cache_quant_algo {algo} ist kein KV-Cache-Format, das AI Sizer kennt; "
        "wählen Sie precision.kv_cache von Hand.",
    "config.json gives no torch_dtype; the weight precision is unknown (bf16 assumed for "
    "native_precision).":
        "config.json nennt kein torch_dtype; das Format der Gewichte ist unbekannt (für "
        "native_precision wird bf16 angenommen).",
    "{file} has no usable metadata.total_size ({error}); summing the safetensors headers "
    "instead.":
        "{file} hat kein verwendbares metadata.total_size ({error}); stattdessen werden die "
        "Safetensors-Header summiert.",
    "No safetensors index or *.safetensors files in the folder; weights_bytes_on_disk is "
    "unknown.":
        "Kein Safetensors-Index und keine *.safetensors-Dateien im Ordner; "
        "weights_bytes_on_disk ist unbekannt.",
    "A safetensors file could not be read ({error}); weights_bytes_on_disk is unknown.":
        "Eine Safetensors-Datei ließ sich nicht lesen ({error}); weights_bytes_on_disk ist "
        "unbekannt.",
    # app/catalog/hf_import.py: a folder or field that cannot be used
    "{where} is missing (needed for {purpose}).": "{where} fehlt (nötig für {purpose}).",
    "{where} is {value}; expected a whole number.":
        "{where} ist {value}; erwartet wird eine ganze Zahl.",
    "{where} is {value}; expected true or false.":
        "{where} ist {value}; erwartet wird true oder false.",
    "{where} is {value}; expected a list of whole numbers.":
        "{where} ist {value}; erwartet wird eine Liste ganzer Zahlen.",
    "{where} is {value}; expected a list of strings.":
        "{where} ist {value}; erwartet wird eine Liste von Texten.",
    "{where} is {value}; expected 1 to {most}.": "{where} ist {value}; erwartet wird 1 bis {most}.",
    "{where} is {value}; expected 1 or more.": "{where} ist {value}; erwartet wird 1 oder mehr.",
    "{where} has {count} entries for {layers} layers.":
        "{where} hat {count} Einträge für {layers} Schichten.",
    "{where} holds {unknown}; AI Sizer knows {known}.":
        "{where} enthält {unknown}; AI Sizer kennt {known}.",
    "config.json: model_type is missing (needed to know the architecture), and architectures "
    "names no class AI Sizer knows.":
        "config.json: model_type fehlt (nötig, um die Architektur zu erkennen), und "
        "architectures nennt keine Klasse, die AI Sizer kennt.",
    "config.json: model_type '{model_type}' is not supported; supported: {supported}.":
        "config.json: model_type '{model_type}' wird nicht unterstützt; unterstützt: "
        "{supported}.",
    "config.json: quantization_config is {value}; expected an object.":
        "config.json: quantization_config ist {value}; erwartet wird ein Objekt.",
    "{file}: quantization is missing (needed for the weight precision).":
        "{file}: quantization fehlt (nötig für das Format der Gewichte).",
    "cannot make a catalog id from the name '{name}'; give one.":
        "Aus dem Namen '{name}' lässt sich keine Katalog-ID bilden; geben Sie eine an.",
    "model id '{model_id}' is not valid: use lower-case letters, digits and . _ + -, starting "
    "with a letter or digit.":
        "Die Modell-ID '{model_id}' ist ungültig: Verwenden Sie Kleinbuchstaben, Ziffern und "
        ". _ + -, beginnend mit einem Buchstaben oder einer Ziffer.",
    "{file} in {folder} is not UTF-8 text.": "{file} in {folder} ist kein UTF-8-Text.",
    "{file} in {folder} is not valid JSON: {error} at line {line} column {column}.":
        "{file} in {folder} ist kein gültiges JSON: {error} in Zeile {line}, Spalte {column}.",
    "{file} in {folder} must hold a JSON object, not {kind}.":
        "{file} in {folder} muss ein JSON-Objekt enthalten, nicht {kind}.",
    "model folder {folder} does not exist.": "Der Modellordner {folder} existiert nicht.",
    "{folder} is not a folder; give the folder that holds config.json.":
        "{folder} ist kein Ordner; geben Sie den Ordner an, der config.json enthält.",
    "no config.json in {folder}; a Hugging Face model folder needs one (GGUF files are not "
    "supported).":
        "Keine config.json in {folder}; ein Hugging-Face-Modellordner braucht eine "
        "(GGUF-Dateien werden nicht unterstützt).",
    "no config.json in {folder}; a Hugging Face model folder needs one.":
        "Keine config.json in {folder}; ein Hugging-Face-Modellordner braucht eine.",
    "config.json describes a model AI Sizer cannot use: {problems}.":
        "config.json beschreibt ein Modell, das AI Sizer nicht verwenden kann: {problems}.",
    "cannot read {path}: {reason}.": "{path} kann nicht gelesen werden: {reason}.",
    "cannot write {path}: {reason}.": "{path} kann nicht geschrieben werden: {reason}.",
    # --- remaining German texts
    # app/engine/pipeline.py, explain.py, calibration.py: what the catalog cannot size
    "unknown model id '{value}'; known: {known}":
        "unbekannte Modell-ID '{value}'; bekannt: {known}",
    "unknown gpu id '{value}'; known: {known}": "unbekannte GPU-ID '{value}'; bekannt: {known}",
    "unknown GPU id '{value}'; known: {known}": "unbekannte GPU-ID '{value}'; bekannt: {known}",
    "unknown cpu id '{value}'; known: {known}": "unbekannte CPU-ID '{value}'; bekannt: {known}",
    "unknown precision id '{value}'; known: {known}":
        "unbekanntes Zahlenformat '{value}'; bekannt: {known}",
    "(none)": "(keine)",
    "unknown GPU ids {ids}": "unbekannte GPU-IDs {ids}",
    "{tensor} does not split {model}'s {heads} attention heads and {kv} KV heads evenly; "
    "allowed: {allowed}":
        "{tensor} teilt die {heads} Attention-Köpfe und {kv} KV-Köpfe von {model} nicht "
        "gleichmäßig auf; erlaubt: {allowed}",
    "{stages} stages for {layers} layers; at most {layers}":
        "{stages} Stufen für {layers} Schichten; höchstens {layers}",
    "no GPU configuration to evaluate; widen selection.gpus":
        "Keine GPU-Konfiguration zu bewerten; erweitern Sie selection.gpus",
    "{overlap:,} must be smaller than the chunk of {chunk:,} tokens":
        "{overlap:,} muss kleiner sein als der Chunk von {chunk:,} Tokens",
    "the catalog has no CPUs (catalogs/cpus.toml)":
        "Der Katalog enthält keine CPUs (catalogs/cpus.toml)",
    "'{method}' adapts a trained model; pre-training trains every weight (use 'full')":
        "'{method}' passt ein trainiertes Modell an; Pre-Training trainiert jedes Gewicht "
        "(verwenden Sie 'full')",
    "'{name}' is not a server for {gpu}; choose one of {servers}":
        "'{name}' ist kein Server für {gpu}; wählen Sie einen von {servers}",
    "no configuration to evaluate; widen selection.gpus or raise training.max_gpus":
        "Keine Konfiguration zu bewerten; erweitern Sie selection.gpus oder erhöhen Sie "
        "training.max_gpus",
    "metric '{metric}' cannot be calibrated; choose one of {choices}":
        "Die Messgröße '{metric}' lässt sich nicht kalibrieren; wählen Sie eine von {choices}",
    "measured {metric} must be positive, got {measured}":
        "Der gemessene Wert von {metric} muss positiv sein, angegeben: {measured}",
    # app/ui/pages/assumptions.py UNIT_NAMES: the Unit column
    "tokens/parameter": "Tokens/Parameter",
    "pages": "Seiten",
    "parameters": "Parameter",
    "links": "Verbindungen",
    "chunks": "Chunks",
    "chunks/GPU": "Chunks/GPU",
    "checkpoints": "Checkpoints",
    "nodes": "Knoten",
    "bits": "Bit",
    "bits/weight": "Bit/Gewicht",
    "B/param": "B/Parameter",
    "B/token": "B/Token",
    "years": "Jahre",
    # app/ui/pages/gpu_selection.py chosen_text: how a training search chose its configuration
    "training: your configuration": "Training: Ihre Konfiguration",
    "training: fewest GPUs that fit": "Training: die wenigsten GPUs, die passen",
    "training: fewest GPUs that fit and meet the target time":
        "Training: die wenigsten GPUs, die passen und die Zieldauer einhalten",
    "training: closest (nothing fits within training.max_gpus)":
        "Training: am nächsten dran (nichts passt innerhalb von training.max_gpus)",
    "{how}, then {rank}": "{how}, danach {rank}",
    # --- German polish: one sequence or replica, network names of rack items, chart texts
    "One sequence at peak context needs {kv:,.1f} GB of KV cache ({avg:,.1f} GB at the average "
    "context).":
        "Eine Sequenz bei maximalem Kontext braucht {kv:,.1f} GB KV-Cache ({avg:,.1f} GB beim "
        "mittleren Kontext).",
    "It fits: one sequence at peak context.": "Es passt: eine Sequenz bei maximalem Kontext.",
    "{n} replica": "{n} Replikat",
    "{n} replicas": "{n} Replikate",
    "sequence": "Sequenz",
    "token": "Token",
    "user": "Nutzer",
    # --- names and assumption labels (app/domain/assumption_labels.py; the sources the
    # engine writes, app/engine/explain.py and pipeline.py)
    "Scale-up bandwidth per GPU": "Scale-up-Bandbreite je GPU",
    "Scale-out bandwidth per GPU": "Scale-out-Bandbreite je GPU",
    "Storage write bandwidth per node": "Schreibbandbreite des Speichers je Knoten",
    "Rack power limit, air cooling": "Leistungsgrenze je Rack, Luftkühlung",
    "Rack power limit, rear-door heat exchanger":
        "Leistungsgrenze je Rack, Rücktür-Wärmetauscher",
    "Rack power limit, direct liquid cooling": "Leistungsgrenze je Rack, direkte Flüssigkühlung",
    "PUE, air cooling": "PUE, Luftkühlung",
    "PUE, rear-door heat exchanger": "PUE, Rücktür-Wärmetauscher",
    "PUE, direct liquid cooling": "PUE, direkte Flüssigkühlung",
    "Share of the heat removed by air (direct liquid cooling)":
        "Anteil der Wärme, den die Luft abführt (direkte Flüssigkühlung)",
    "Air temperature rise": "Temperaturanstieg der Luft",
    "Coolant temperature rise": "Temperaturanstieg des Kühlmittels",
    "Power factor": "Leistungsfaktor",
    "Continuous load, share of the PDU rating": "Dauerlast, Anteil am PDU-Nennstrom",
    "Period of the total cost of ownership": "Zeitraum der Gesamtkosten (TCO)",
    "Network share of the capital cost": "Anteil des Netzwerks an der Investition",
    "Storage price per usable TB": "Speicherpreis je nutzbarem TB",
    "Price of a rack": "Preis eines Racks",
    "Price of a rack PDU": "Preis einer Rack-PDU",
    "Direct liquid cooling, price per rack": "Direkte Flüssigkühlung, Preis je Rack",
    "Model versions kept": "Vorgehaltene Modellversionen",
    "Copies in the model repository": "Kopien im Modell-Repository",
    "Log size per request": "Protokollgröße je Anfrage",
    "Log retention": "Aufbewahrung der Protokolle",
    "Monitoring metrics per GPU and day": "Monitoring-Metriken je GPU und Tag",
    "Model FLOPs utilisation (MFU), training": "Auslastung der Rechenleistung (MFU), Training",
    "Share of GPU memory usable for training":
        "Anteil des GPU-Speichers, der für das Training nutzbar ist",
    "Global batch, pre-training": "Globaler Batch, Pre-Training",
    "Global batch, fine-tuning": "Globaler Batch, Fine-Tuning",
    "Pre-training tokens per parameter": "Pre-Training-Tokens je Parameter",
    "Fine-tuning tokens": "Tokens für das Fine-Tuning",
    "Training tokens": "Trainings-Tokens",
    "LoRA rank": "LoRA-Rang",
    "QLoRA bits per base weight": "QLoRA-Bit je Basisgewicht",
    "Checkpoint size per parameter": "Checkpoint-Größe je Parameter",
    "Data set size per token": "Größe des Datensatzes je Token",
    "Mean time between failures of one GPU": "Mittlere Zeit zwischen Ausfällen einer GPU",
    "Bus efficiency of collectives": "Buseffizienz der kollektiven Operationen",
    "Time factor of full activation recomputation":
        "Zeitfaktor der vollständigen Neuberechnung der Aktivierungen",
    "Nodes per storage scalable unit": "Knoten je skalierbarer Speichereinheit",
    "Storage write of one scalable unit, tier 'good'":
        "Schreibrate einer skalierbaren Einheit, Speicherklasse 'good'",
    "Storage write of one scalable unit, tier 'better'":
        "Schreibrate einer skalierbaren Einheit, Speicherklasse 'better'",
    "Storage write of one scalable unit, tier 'best'":
        "Schreibrate einer skalierbaren Einheit, Speicherklasse 'best'",
    "Pipeline chunks per GPU (interleaved schedule)":
        "Pipeline-Abschnitte je GPU (verschachtelter Ablauf)",
    "Pages per document": "Seiten je Dokument",
    "Tokens per page": "Tokens je Seite",
    "Chunk size": "Chunk-Größe",
    "Chunk overlap": "Überlappung der Chunks",
    "Chunks retrieved per query (top-k)": "Abgerufene Chunks je Anfrage (Top-k)",
    "Parameters of the embedding model": "Parameter des Embedding-Modells",
    "Embedding dimensions": "Dimensionen des Embeddings",
    "Compute efficiency, embedding": "Recheneffizienz, Embedding",
    "Bytes per vector dimension": "Bytes je Vektordimension",
    "HNSW links per vector (M)": "HNSW-Verbindungen je Vektor (M)",
    "HNSW overhead": "Zusatzbedarf des HNSW-Index",
    "IVF-PQ code size per vector": "IVF-PQ-Codegröße je Vektor",
    "Vector search time per query": "Dauer der Vektorsuche je Anfrage",
    "Memory bandwidth efficiency, CPU": "Effizienz der Speicherbandbreite, CPU",
    "Compute efficiency, CPU": "Recheneffizienz, CPU",
    "Power of a CPU server without its CPUs": "Leistung eines CPU-Servers ohne seine CPUs",
    "{source} (as of {date})": "{source} (Stand {date})",
    "{engine} profile (calibrated): {source} (as of {date})":
        "Profil {engine} (kalibriert): {source} (Stand {date})",
    "{engine} profile (not calibrated on this GPU family): {source} (as of {date})":
        "Profil {engine} (nicht für diese GPU-Familie kalibriert): {source} (Stand {date})",
    "set in this scenario": "in diesem Szenario gesetzt",
    "catalog default": "Vorgabe des Katalogs",
    "catalog server: cluster NICs x speed / GPUs":
        "Server aus dem Katalog: Cluster-NICs x Geschwindigkeit / GPUs",
    "no cluster NICs: 10 Gb/s front-end port assumed":
        "keine Cluster-NICs: ein Front-End-Port mit 10 Gb/s angenommen",
    "storage tier catalog (NVIDIA SuperPOD RA Table 6)":
        "Katalog der Speicherklassen (NVIDIA SuperPOD RA, Tabelle 6)",
    "{source}: {params:,.2f} billion parameters x {per_param:g} tokens":
        "{source}: {params:,.2f} Milliarden Parameter x {per_param:g} Tokens",
    # --- singular and plural: the form for a count of one (app.i18n.plural) -----------------------
    # engine sentences (app/engine/narrative.py, explain.py, pipeline.py)
    "In {fmt} the weights take {weights:,.1f} GB, all on one GPU.":
        "In {fmt} belegen die Gewichte {weights:,.1f} GB, alle auf einer GPU.",
    "It does not fit: only one of {users:,} sequences fits at peak context.":
        "Es passt nicht: nur eine von {users:,} Sequenzen passt bei maximalem Kontext.",
    "At one concurrent user: {speed:,.1f} tokens/s, first token after {ttft:,.2f} s, {total:,.0f} "
    "output tokens/s in all (decode batch {batch:,.0f}).":
        "Bei einem gleichzeitigen Nutzer: {speed:,.1f} Tokens/s, erstes Token nach {ttft:,.2f} s, "
        "insgesamt {total:,.0f} Ausgabe-Tokens/s (Decode-Batch {batch:,.0f}).",
    "At saturation a replica serves {total:,.0f} output tokens/s with one user.":
        "Bei Sättigung liefert ein Replikat {total:,.0f} Ausgabe-Tokens/s mit einem Nutzer.",
    "One user per replica meets both targets with room at the maximum context.":
        "Ein Nutzer je Replikat erreicht beide Ziele, mit Platz beim maximalen Kontext.",
    "One replica carries the load, without redundancy, on {nodes:,} x {server}.":
        "Ein Replikat trägt die Last, ohne Redundanz, auf {nodes:,} x {server}.",
    "{load:,} replicas carry the load, without redundancy, on {nodes:,} x {server}.":
        "Replikate für die Last: {load:,}, ohne Redundanz, auf {nodes:,} x {server}.",
    "One replica carries the load; with {redundancy} redundancy {replicas:,} replicas run on "
    "{nodes:,} x {server}.":
        "Ein Replikat trägt die Last; mit Redundanz ({redundancy}) laufen {replicas:,} Replikate "
        "auf {nodes:,} x {server}.",
    "The batch volume takes {hours:,.1f} h on one replica at saturation throughput.":
        "Das Batch-Volumen dauert {hours:,.1f} h auf einem Replikat beim Durchsatz in Sättigung.",
    "With one node down, one of {replicas:,} replicas still serves the full load ({load:,} "
    "needed).":
        "Bei Ausfall eines Knotens bedient eines von {replicas:,} Replikaten weiterhin die volle "
        "Last ({load:,} benötigt).",
    "With one rack down, one of {replicas:,} replicas still serves the full load ({load:,} "
    "needed).":
        "Bei Ausfall eines Racks bedient eines von {replicas:,} Replikaten weiterhin die volle "
        "Last ({load:,} benötigt).",
    "With one node down, the only replica stops: nothing serves until the node is repaired.":
        "Bei Ausfall eines Knotens fällt das einzige Replikat aus: Bis zur Reparatur des Knotens "
        "wird nichts bedient.",
    "With one rack down, the only replica stops: nothing serves until the rack is repaired.":
        "Bei Ausfall eines Racks fällt das einzige Replikat aus: Bis zur Reparatur des Racks wird "
        "nichts bedient.",
    "With one node down, one of {replicas:,} replicas serves about {share:.0%} of the peak load; "
    "the rest queue.":
        "Bei Ausfall eines Knotens bedient eines von {replicas:,} Replikaten etwa {share:.0%} der "
        "Spitzenlast; der Rest wartet in der Warteschlange.",
    "With one rack down, one of {replicas:,} replicas serves about {share:.0%} of the peak load; "
    "the rest queue.":
        "Bei Ausfall eines Racks bedient eines von {replicas:,} Replikaten etwa {share:.0%} der "
        "Spitzenlast; der Rest wartet in der Warteschlange.",
    "{gpus:,} x {gpu}: one data-parallel replica of {t:,} (tensor) x {p:,} (pipeline) GPUs, ZeRO "
    "stage {zero}, {recompute}.":
        "{gpus:,} x {gpu}: ein datenparalleles Replikat aus {t:,} (Tensor) x {p:,} (Pipeline) "
        "GPUs, ZeRO-Stufe {zero}, {recompute}.",
    "A step trains {tokens:,.0f} tokens ({seqs:,} sequences of {s:,}, one micro-batch of {b:,} "
    "per replica) in {step:,.2f} s at {mfu:.0%} MFU.":
        "Ein Schritt trainiert {tokens:,.0f} Tokens (Sequenzen: {seqs:,} zu {s:,}; ein "
        "Micro-Batch zu {b:,} je Replikat) in {step:,.2f} s bei {mfu:.0%} MFU.",
    "A checkpoint is {size:,.1f} GB and takes {save:,.0f} s to write; with a failure every "
    "{mtbf:,.1f} h on one GPU the best interval is {interval:,.0f} min, costing {share:.1%} of "
    "the run: {days:,.1f} days in all.":
        "Ein Checkpoint umfasst {size:,.1f} GB, das Schreiben dauert {save:,.0f} s; bei einem "
        "Ausfall alle {mtbf:,.1f} h auf einer GPU ist das beste Intervall {interval:,.0f} min, "
        "das {share:.1%} der Laufzeit kostet: insgesamt {days:,.1f} Tage.",
    "A GPU or node failure stops the whole job; it resumes from the last checkpoint (every "
    "{interval:,.0f} min), losing about {lost:,.0f} min of work; on one GPU that happens about "
    "every {mtbf:,.1f} h.":
        "Ein Ausfall einer GPU oder eines Knotens stoppt den ganzen Job; er setzt am letzten "
        "Checkpoint wieder auf (alle {interval:,.0f} min) und verliert etwa {lost:,.0f} min "
        "Arbeit; bei einer GPU geschieht das etwa alle {mtbf:,.1f} h.",
    "A rack failure takes down the job's only node and stops the job like any other failure; it "
    "resumes from the last checkpoint once the node is repaired or replaced.":
        "Ein Rack-Ausfall legt den einzigen Knoten des Jobs lahm und stoppt den Job wie jeder "
        "andere Ausfall; er setzt am letzten Checkpoint fort, sobald der Knoten repariert oder "
        "ersetzt ist.",
    "The training cluster: one GPU on {nodes:,} x {server}; training keeps no spare replicas, it "
    "restarts from checkpoints.":
        "Der Trainingscluster: eine GPU auf {nodes:,} x {server}; das Training hält keine "
        "Reserve-Replikate vor, es startet von Checkpoints neu.",
    "At one user the CPU server gives {speed:,.1f} tokens/s and a first token after {ttft:,.1f} "
    "s; the GPU option {gpu_speed:,.1f} tokens/s and {gpu_ttft:,.2f} s.":
        "Bei einem Nutzer liefert der CPU-Server {speed:,.1f} Tokens/s und ein erstes Token nach "
        "{ttft:,.1f} s; die GPU-Option {gpu_speed:,.1f} Tokens/s und {gpu_ttft:,.2f} s.",
    "Verdict: a CPU server ({sockets} x {cpu}) is enough for {model} in {fmt} at this load: one "
    "user meets both targets. A GPU is faster ({gpu:,.0f} against {cpu_speed:,.0f} tokens/s per "
    "user) but not needed.":
        "Bewertung: Ein CPU-Server ({sockets} x {cpu}) genügt für {model} in {fmt} bei dieser "
        "Last: Ein Nutzer erreicht beide Ziele. Eine GPU ist schneller ({gpu:,.0f} gegenüber "
        "{cpu_speed:,.0f} Tokens/s je Nutzer), aber nicht nötig.",
    "Verdict: CPUs suit light use only. {sockets} x {cpu} serves one user of {model} ({fmt}) "
    "within the targets; the scenario's {users:,} users need the GPU option.":
        "Bewertung: CPUs eignen sich nur für leichte Nutzung. {sockets} x {cpu} bedient einen "
        "Nutzer von {model} ({fmt}) innerhalb der Ziele; die {users:,} Nutzer des Szenarios "
        "brauchen die GPU-Option.",
    "The KV cache for one user at {context:,} tokens does not fit: not even one sequence fits "
    "per replica.":
        "Der KV-Cache für einen Nutzer bei {context:,} Tokens passt nicht: Nicht einmal eine "
        "Sequenz passt in ein Replikat.",
    "The KV cache for {users} users at {context:,} tokens does not fit: only one sequence fits "
    "per replica; the others wait in a queue.":
        "Der KV-Cache für {users} Nutzer bei {context:,} Tokens passt nicht (je Replikat nur eine "
        "Sequenz); die übrigen Nutzer warten in einer Warteschlange.",
    "works with one GPU ({days:.1f} days); ranked lower":
        "funktioniert mit einer GPU ({days:.1f} Tage); nachrangig",
    "The training configuration does not fit: {need:.1f} GB per GPU against {usable:.1f} GB "
    "usable on one {gpu}. Raise training.max_gpus, shard more (ZeRO-3), recompute activations or "
    "use a larger GPU.":
        "Die Trainingskonfiguration passt nicht: {need:.1f} GB je GPU gegenüber {usable:.1f} GB "
        "nutzbar auf einer {gpu}. Erhöhen Sie training.max_gpus, verteilen Sie stärker (ZeRO-3), "
        "berechnen Sie Aktivierungen neu oder verwenden Sie eine größere GPU.",
    "The pipeline bubble adds {share:.0%} to every step (one micro-batch for {p} stages); more "
    "micro-batches per step or an interleaved schedule reduce it.":
        "Die Pipeline-Blase verlängert jeden Schritt um {share:.0%} (ein Micro-Batch für {p} "
        "Stufen); mehr Micro-Batches je Schritt oder ein verschränkter Ablauf (interleaved "
        "schedule) verringern sie.",
    "The prompt of {prompt:,} tokens is shorter than the {added:,} tokens of retrieved context "
    "(one chunk of {chunk:,}); raise workload.prompt_tokens so that the GPU sizing includes "
    "them.":
        "Der Prompt mit {prompt:,} Tokens ist kürzer als die {added:,} Tokens abgerufenen "
        "Kontexts (ein Chunk mit {chunk:,} Tokens); erhöhen Sie workload.prompt_tokens, damit die "
        "GPU-Dimensionierung sie einschließt.",
    # the window (app/ui/pages/training.py, redundancy.py)
    "chosen: {n} GPU": "gewählt: {n} GPU",
    "{n} sequences ({tokens} tokens), one accumulation step":
        "Sequenzen: {n} ({tokens} Tokens), ein Akkumulationsschritt",
    "{n} x {server}, {gpus} GPU each": "{n} x {server}, je {gpus} GPU",
    "… and one more node": "… und ein weiterer Knoten",
    # the command line's summary (app/summary.py)
    "{n} concurrent user": "{n} gleichzeitiger Nutzer",
    "{n} concurrent users": "{n} gleichzeitige Nutzer",
    "{n} user per replica": "{n} Nutzer je Replikat",
    "{n} users per replica": "{n} Nutzer je Replikat",
    "{n} GPU in replicas": "{n} GPU in Replikaten",
    "{n} GPUs in replicas": "{n} GPUs in Replikaten",
    # --- plurals in the window and charts (memory, GPU selection, performance, report page,
    # compare, assumptions; the engine's verdict and scale-up link)
    "{n} user per replica within the targets": "{n} Nutzer je Replikat innerhalb der Ziele",
    "{link}, {gb_s:,g} GB/s per GPU per direction, one GPU per node":
        "{link}, {gb_s:,g} GB/s je GPU und Richtung, eine GPU je Knoten",
    "Whole replica ({n} GPU)": "Ganzes Replikat ({n} GPU)",
    "{n} GPUs": "{n} GPUs",
    "One replica of {n} x {gpu} (tensor parallel {t}, pipeline {p}) with {w} weights and {kv} KV "
    "cache, serving {model}; {nodes} x {server}.":
        "Ein Replikat mit {n} x {gpu} (Tensor-Parallelität {t}, Pipeline {p}), Gewichte in {w} "
        "und KV-Cache in {kv}, für {model}; {nodes} x {server}.",
    "TTFT under {target}: {value} at one user, {verdict}":
        "TTFT unter {target}: {value} bei einem Nutzer, {verdict}",
    "Tokens/s per user at least {target}: {value} at one user, {verdict}":
        "Tokens/s je Nutzer mind. {target}: {value} bei einem Nutzer, {verdict}",
    "{name}: {users} user": "{name}: {users} Nutzer",
    "At one user: {ms} ms per step ({bound})": "Bei einem Nutzer: {ms} ms je Schritt ({bound})",
    "{speed} at {users} user": "{speed} bei {users} Nutzer",
    "The model predicts {value} at one user now.":
        "Das Modell sagt derzeit {value} bei einem Nutzer voraus.",
    "Check: the model now predicts {value} at one user (measured {measured}).":
        "Kontrolle: Das Modell sagt jetzt {value} bei einem Nutzer voraus (gemessen "
        "{measured}).",
    # === model schema: hybrid, sparse and embedding models, speculative heads (issue 15) =====
    "Speculative decoding is on: its heads add {gb:,.1f} GB of weights and the KV cache of one "
    "more layer per replica; its speed-up depends on how many drafted tokens are accepted and "
    "is not in the figures.":
        "Spekulatives Decodieren ist an: Seine Köpfe belegen {gb:,.1f} GB Gewichte und den "
        "KV-Cache einer weiteren Schicht je Replikat; wie stark es beschleunigt, hängt davon ab, "
        "wie viele Entwurfstokens angenommen werden, und ist in den Zahlen nicht enthalten.",
    "Speculative decoding is on: its heads add {gb:,.1f} GB of weights and the KV cache of "
    "{layers:,} more layers per replica; its speed-up depends on how many drafted tokens are "
    "accepted and is not in the figures.":
        "Spekulatives Decodieren ist an: Seine Köpfe belegen {gb:,.1f} GB Gewichte und den "
        "KV-Cache von {layers:,} weiteren Schichten je Replikat; wie stark es beschleunigt, "
        "hängt davon ab, wie viele Entwurfstokens angenommen werden, und ist in den Zahlen nicht "
        "enthalten.",
    "Its linear-attention layers keep a fixed state of {state:,.1f} MB per sequence instead of "
    "a KV cache, whatever the context; it is part of the figures that follow.":
        "Seine Schichten mit linearer Attention halten statt eines KV-Cache einen festen Zustand "
        "von {state:,.1f} MB je Sequenz, unabhängig vom Kontext; er ist in den folgenden Zahlen "
        "enthalten.",
    "{model} ({params:,.0f} million parameters, counted from its architecture with the "
    "attention over each chunk) needs {flops:.3g} FLOPs: about {hours:,.1f} h on {gpus:,} x "
    "{gpu}.":
        "{model} ({params:,.0f} Millionen Parameter, aus der Architektur gerechnet, mit der "
        "Attention über jeden Abschnitt) braucht {flops:.3g} FLOPs: etwa {hours:,.1f} h auf "
        "{gpus:,} x {gpu}.",
    "{name} is an embedding or reranking model and writes no text; choose it as "
    "rag.embedding_model and serve a text model here":
        "{name} ist ein Embedding- oder Reranking-Modell und schreibt keinen Text; wählen Sie es "
        "als rag.embedding_model und hier ein Textmodell",
    "{name} has no speculative-decoding heads in the catalog; add them to the model "
    "(speculative) or switch speculative decoding off":
        "{name} hat im Katalog keine Köpfe für spekulatives Decodieren; tragen Sie sie beim "
        "Modell ein (speculative) oder schalten Sie spekulatives Decodieren aus",
    "'{value}' is not an embedding model in the catalog; known: {known}":
        "'{value}' ist kein Embedding-Modell im Katalog; bekannt: {known}",
    "{chunk:,} tokens do not fit {model}'s input of {limit:,} tokens":
        "{chunk:,} Tokens passen nicht in die Eingabe von {model} mit {limit:,} Tokens",
    "{dim:,} is wider than the {width:,} dimensions {model} returns":
        "{dim:,} ist breiter als die {width:,} Dimensionen, die {model} liefert",
    "give either embedding_model ({model}) or embedding_params ({params:,.0f}), not both":
        "geben Sie entweder embedding_model ({model}) oder embedding_params ({params:,.0f}) an, "
        "nicht beides",
    # --- importer (app/catalog/hf_import/architectures.py) ---
    "the indexer's heads (sparse attention)": "die Köpfe des Indexers (Sparse Attention)",
    "the width of the indexer's key": "die Breite des Indexer-Schlüssels",
    "the tokens each query attends to (index_topk)":
        "die Tokens, die jede Abfrage beachtet (index_topk)",
    "{where} is not given (Kimi Linear's MLA layers use no positions); used {tokens:,} tokens, "
    "the context the Kimi Linear model card states.":
        "{where} fehlt (die MLA-Schichten von Kimi Linear verwenden keine Positionen); "
        "verwendet wurden {tokens:,} Tokens, der Kontext laut Modellkarte von Kimi Linear.",
    "model_type {model_type} is not one AI Sizer knows; read as {known} because architectures "
    "names {cls}.":
        "model_type {model_type} kennt AI Sizer nicht; gelesen als {known}, weil architectures "
        "{cls} nennt.",
    "the embedding size": "die Größe der Einbettungstabelle",
    "the head width of Kimi Delta Attention": "die Kopfbreite der Kimi Delta Attention",
    "the heads of Kimi Delta Attention": "die Köpfe der Kimi Delta Attention",
    "the key width of linear layers": "die Schlüsselbreite der linearen Schichten",
    "the layout of linear and full layers":
        "die Anordnung der linearen und der vollen Attention-Schichten",
    "the position table": "die Positionstabelle",
    "the query/key heads of linear layers": "die Abfrage- und Schlüsselköpfe der linearen Schichten",
    "the value heads of linear layers": "die Wertköpfe der linearen Schichten",
    "the value width of linear layers": "die Wertbreite der linearen Schichten",
    "{where} is missing (needed for the layout of the Kimi Delta Attention layers).":
        "{where} fehlt (nötig für die Anordnung der Kimi-Delta-Attention-Schichten).",
    "{where} is missing (needed for which layers attend fully).":
        "{where} fehlt (nötig, um zu wissen, welche Schichten voll beachten).",
    # --- catalog forms (app/ui/dialogs/catalog_entry.py, entry_form.py, entry_labels.py) ---
    "BERT's pooler layer.":
        'Die Pooler-Schicht von BERT.',
    "BERT's token-type table.":
        'Die Token-Typ-Tabelle von BERT.',
    "Catalog id: '{value}' is not valid; use lower-case letters, digits and . _ + -, starting with"
    ' a letter or digit.':
        "Katalog-ID: '{value}' ist ungültig; verwenden Sie Kleinbuchstaben, Ziffern und . _ + -, "
        'am Anfang ein Buchstabe oder eine Ziffer.',
    "Rerankers: the classification head's outputs.":
        'Reranker: die Ausgänge des Klassifikationskopfs.',
    "The publisher's figure, a check.":
        'Die Zahl des Herausgebers, zur Kontrolle.',
    "The system's maximum, GPUs included.":
        'Das Maximum des Systems, GPUs eingeschlossen.',
    "Use this server for the scenario's configuration":
        'Diesen Server für die Konfiguration des Szenarios verwenden',
    "nvidia-smi's total; preferred when known.":
        'Die Gesamtangabe von nvidia-smi; bevorzugt, wenn bekannt.',
    "{field}: '{value}' is not a number":
        "{field}: '{value}' ist keine Zahl",
    '&Catalog':
        '&Katalog',
    '&Import model folder…':
        'Modellordner &importieren…',
    '(a new entry)':
        '(ein neuer Eintrag)',
    '48 for a whole rack system.':
        '48 für ein ganzes Rack-System.',
    'Add or edit a &GPU…':
        '&GPU hinzufügen oder bearbeiten…',
    'Add or edit a &model…':
        '&Modell hinzufügen oder bearbeiten…',
    'Add or edit a &server…':
        '&Server hinzufügen oder bearbeiten…',
    'Add or edit a GPU':
        'GPU hinzufügen oder bearbeiten',
    'Add or edit a GPU…':
        'GPU erfassen…',
    'Add or edit a model':
        'Modell hinzufügen oder bearbeiten',
    'Add or edit a model…':
        'Modell hinzufügen oder bearbeiten…',
    'Add or edit a server':
        'Server hinzufügen oder bearbeiten',
    'Anything a reader of the report should know about this entry.':
        'Was ein Leser des Berichts über diesen Eintrag wissen sollte.',
    'Architecture family':
        'Architekturfamilie',
    'As many as query heads for MHA, 1 for MQA.':
        'So viele wie Abfrageköpfe bei MHA, 1 bei MQA.',
    'As of (YYYY-MM-DD)':
        'Stand (JJJJ-MM-TT)',
    'Attention biases':
        'Bias-Terme der Attention',
    'BERT, XLM-RoBERTa.':
        'Etwa BERT, XLM-RoBERTa.',
    'BF16 / FP16 (TFLOP/s, dense)':
        'BF16 / FP16 (TFLOP/s, dicht)',
    'Bidirectional encoder':
        'Bidirektionaler Encoder',
    'Board power (W)':
        'Leistungsaufnahme der Karte (W)',
    'Check when the model routes tokens to experts.':
        'Ankreuzen, wenn das Modell Tokens auf Experten verteilt.',
    'Classifier labels':
        'Klassen des Klassifikators',
    'Comma-separated GPU ids of the catalog.':
        'GPU-IDs aus dem Katalog, durch Kommas getrennt.',
    'Context limit (tokens)':
        'Kontextgrenze (Tokens)',
    'Convolution taps':
        'Breite der Faltung',
    'Decoder layers of the heads; each keeps a KV cache.':
        'Decoder-Schichten der Köpfe; jede hält einen KV-Cache.',
    'DeepSeek-V2/V3 style: the compressed latent is cached.':
        'Wie bei DeepSeek-V2/V3: Der komprimierte Latentvektor wird zwischengespeichert.',
    'DeepSeek-V3.2: an indexer picks the tokens each query reads.':
        'DeepSeek-V3.2: Ein Indexer wählt die Tokens, die jede Abfrage liest.',
    'Dense layers':
        'Dichte Schichten',
    'Dense tensor throughput, no 2:4 sparsity.':
        'Dichter Tensor-Durchsatz, ohne 2:4-Sparsity.',
    'Derived fields':
        'Abgeleitete Felder',
    'Describe a GPU in a form and save it to your catalog; the search considers it at once.':
        'Beschreiben Sie eine GPU in einem Formular und speichern Sie sie in Ihrem Katalog; die '
        'Suche berücksichtigt sie sofort.',
    'Describe a model in a form (layers, heads, experts ...) and save it to your catalog.':
        'Beschreiben Sie ein Modell in einem Formular (Schichten, Köpfe, Experten ...) und '
        'speichern Sie es in Ihrem Katalog.',
    'Dimensions an embedding model returns.':
        'Dimensionen, die ein Embedding-Modell liefert.',
    'Empty for MTP: counted from the architecture.':
        'Leer bei MTP: aus der Architektur gezählt.',
    'Empty when the GPU has no FP4 tensor cores.':
        'Leer, wenn die GPU keine FP4-Tensorkerne hat.',
    'Empty when the GPU has no FP8 tensor cores.':
        'Leer, wenn die GPU keine FP8-Tensorkerne hat.',
    'Empty: full-rank queries.':
        'Leer: Abfragen mit vollem Rang.',
    'Empty: hidden size / query heads.':
        'Leer: Modellbreite / Abfrageköpfe.',
    'Empty: the expert width.':
        'Leer: die Expertenbreite.',
    'Entry':
        'Eintrag',
    'Evaluate the scenario on this GPU':
        'Das Szenario auf dieser GPU bewerten',
    'Expert width':
        'Expertenbreite',
    'Experts per token':
        'Experten je Token',
    'FP4 (TFLOP/s, dense)':
        'FP4 (TFLOP/s, dicht)',
    'FP8 (TFLOP/s, dense)':
        'FP8 (TFLOP/s, dicht)',
    'Fields computed from others rather than read, comma-separated.':
        'Felder, die aus anderen berechnet statt abgelesen wurden, durch Kommas getrennt.',
    'Fields marked * are needed; empty optional fields keep their defaults. Saving adds the entry '
    'to your catalog (★), where it replaces a built-in entry with the same id.':
        'Mit * markierte Felder sind nötig; leere optionale Felder behalten ihre Vorgaben. '
        'Speichern legt den Eintrag in Ihrem Katalog ab (★), wo er einen eingebauten Eintrag mit '
        'derselben ID ersetzt.',
    'Fill the form from a local Hugging Face folder (config.json); check it, then save.':
        'Das Formular aus einem lokalen Hugging-Face-Ordner (config.json) füllen; prüfen, dann '
        'speichern.',
    'Form factor':
        'Bauform',
    'Format the weights ship in':
        'Format, in dem die Gewichte ausgeliefert werden',
    'GPU-to-GPU link':
        'Verbindung zwischen GPUs',
    'GPUs it takes (catalog ids)':
        'Passende GPUs (Katalog-IDs)',
    'GPUs one NVLink or Infinity Fabric domain joins.':
        'GPUs, die eine NVLink- oder Infinity-Fabric-Domäne verbindet.',
    'GPUs per server':
        'GPUs je Server',
    'Gated attention output':
        'Attention-Ausgang mit Gate',
    'Gated shared expert':
        'Geteilter Experte mit Gate',
    'Head width':
        'Kopfbreite',
    'Height (U)':
        'Höhe (HE)',
    'Hidden size':
        'Modellbreite',
    'How many layers attend linearly; the rest attend fully.':
        'Wie viele Schichten linear beachten; die übrigen beachten voll.',
    'INT8 (TOP/s, dense)':
        'INT8 (TOP/s, dicht)',
    'Indexer heads':
        'Köpfe des Indexers',
    'Indexer key width':
        'Schlüsselbreite des Indexers',
    'Indicative price of the server, dated by its source.':
        'Richtpreis des Servers, datiert durch seine Quelle.',
    'Indicative price, dated by its source.':
        'Richtpreis, datiert durch seine Quelle.',
    'Key head width':
        'Breite eines Schlüsselkopfs',
    'Largest scale-up domain (GPUs)':
        'Größte Scale-up-Domäne (GPUs)',
    'Latent width':
        'Breite des Latentvektors',
    'Layers that keep a fixed state per sequence instead of a KV cache (Gated DeltaNet, Kimi Delta'
    ' Attention).':
        'Schichten, die statt eines KV-Cache einen festen Zustand je Sequenz halten (Gated '
        'DeltaNet, Kimi Delta Attention).',
    'Layers whose MLP is dense instead of MoE.':
        'Schichten mit dichtem MLP statt MoE.',
    'Layers with full attention':
        'Schichten mit voller Attention',
    'Learned positions':
        'Gelernte Positionen',
    'Licence':
        'Lizenz',
    'Linear layers':
        'Lineare Schichten',
    'Linear-attention layers':
        'Schichten mit linearer Attention',
    'Link bandwidth per direction (GB/s)':
        'Bandbreite der Verbindung je Richtung (GB/s)',
    'Local NVMe (TB)':
        'Lokaler NVMe-Speicher (TB)',
    'Lower-case letters, digits and . _ + -, starting with a letter or digit.':
        'Kleinbuchstaben, Ziffern und . _ + -, am Anfang ein Buchstabe oder eine Ziffer.',
    'MLP biases':
        'Bias-Terme des MLP',
    'MLP width':
        'MLP-Breite',
    'MLP type':
        'MLP-Art',
    'MTP layers or an EAGLE draft, loaded only when speculative decoding is on.':
        'MTP-Schichten oder ein EAGLE-Entwurfsmodell, nur geladen, wenn spekulatives Decodieren an'
        ' ist.',
    'Maximum power (W)':
        'Maximale Leistung (W)',
    'Memory (GB)':
        'Speicher (GB)',
    'Memory bandwidth (GB/s)':
        'Speicherbandbreite (GB/s)',
    'Memory on the card [GB, 10^9 bytes].':
        'Speicher auf der Karte [GB, 10^9 Byte].',
    'Memory the driver reports (GiB)':
        'Vom Treiber gemeldeter Speicher (GiB)',
    'Multi-head latent attention':
        'Multi-Head-Latent-Attention',
    'Non-RoPE part of a head':
        'Nicht-RoPE-Anteil eines Kopfs',
    'Norm':
        'Normalisierung',
    'Norms on queries and keys':
        'Normen auf Abfragen und Schlüsseln',
    'Norms per layer':
        'Normen je Schicht',
    'Notes':
        'Anmerkungen',
    'One per GPU in HGX systems.':
        'Eine je GPU in HGX-Systemen.',
    'Output head bias':
        'Bias des Ausgabekopfs',
    'Output head shares the embedding':
        'Ausgabekopf teilt die Einbettung',
    'Peak, from the datasheet.':
        'Spitzenwert laut Datenblatt.',
    'Per-head RMS norms (Qwen3).':
        'RMS-Normen je Kopf (Qwen3).',
    'Pooler':
        'Pooler-Schicht',
    'Price (USD)':
        'Preis (USD)',
    'Price includes the GPUs':
        'Preis enthält die GPUs',
    'Price source':
        'Preisquelle',
    'Price without GPUs (USD)':
        'Preis ohne GPUs (USD)',
    'Published active parameters':
        'Veröffentlichte aktive Parameter',
    'Published parameters':
        'Veröffentlichte Parameter',
    'Query heads':
        'Abfrageköpfe',
    'Query low rank':
        'Niedriger Rang der Abfragen',
    'Query/key heads':
        'Abfrage- und Schlüsselköpfe',
    'Qwen MoE: a sigmoid gate scales the shared expert.':
        'Qwen-MoE: Ein Sigmoid-Gate skaliert den geteilten Experten.',
    'Read a model folder…':
        'Modellordner lesen…',
    'RoPE part of a head':
        'RoPE-Anteil eines Kopfs',
    'Routed experts':
        'Geroutete Experten',
    'Router bias':
        'Bias des Routers',
    'Rows of the position table (BERT).':
        'Zeilen der Positionstabelle (BERT).',
    'Scale-out NICs':
        'Scale-out-NICs',
    'Selects the calibrated efficiency factors.':
        'Wählt die kalibrierten Effizienzfaktoren.',
    'Serve this model in the scenario':
        'Dieses Modell im Szenario bereitstellen',
    'Shared expert width':
        'Breite des geteilten Experten',
    'Shared experts':
        'Geteilte Experten',
    'Sliding window (tokens)':
        'Gleitendes Fenster (Tokens)',
    'Sparse attention (DSA indexer)':
        'Sparse Attention (DSA-Indexer)',
    'Speculative-decoding heads':
        'Köpfe für spekulatives Decodieren',
    'Speed per scale-out NIC (Gb/s)':
        'Geschwindigkeit je Scale-out-NIC (Gb/s)',
    'Start from':
        'Ausgehend von',
    'State format':
        'Format des Zustands',
    'Storage NICs':
        'Speicher-NICs',
    'Task':
        'Aufgabe',
    'The built-in entry {id} stays in the program; yours replaces it for you.':
        'Der eingebaute Eintrag {id} bleibt im Programm; Ihrer ersetzt ihn für Sie.',
    'The date the figures were read or last checked.':
        'Das Datum, an dem die Zahlen gelesen oder zuletzt geprüft wurden.',
    'The link tensor parallelism uses inside a node.':
        'Die Verbindung, die Tensor-Parallelität innerhalb eines Knotens nutzt.',
    'The name the window and the report show.':
        'Der Name, den Fenster und Bericht zeigen.',
    'The query projection also yields an output gate (Qwen3-Next, Qwen3.5).':
        'Die Abfrageprojektion liefert auch ein Gate für den Ausgang (Qwen3-Next, Qwen3.5).',
    'Token types':
        'Token-Typen',
    'Tokens each query reads':
        'Tokens, die jede Abfrage liest',
    'Typical power (W)':
        'Typische Leistung (W)',
    'Usable memory (GB)':
        'Nutzbarer Speicher (GB)',
    'Value head width':
        'Breite eines Wertkopfs',
    'Value heads':
        'Wertköpfe',
    'Value width of a head':
        'Wertbreite eines Kopfs',
    'Vector width':
        'Vektorbreite',
    'Vendor':
        'Hersteller',
    'Vocabulary':
        'Vokabular',
    'Weight (kg)':
        'Gewicht (kg)',
    'What collectives between two GPUs reach.':
        'Was kollektive Operationen zwischen zwei GPUs erreichen.',
    'What the shipped format quantises':
        'Was das ausgelieferte Format quantisiert',
    'When a sliding window is set; the rest are local.':
        'Wenn ein gleitendes Fenster gesetzt ist; die übrigen sind lokal.',
    'When the system exposes less than is on the card.':
        'Wenn das System weniger freigibt, als auf der Karte ist.',
    'Where the figures were read: datasheet, page, URL (required).':
        'Wo die Zahlen gelesen wurden: Datenblatt, Seite, URL (nötig).',
    'Where the price was read, with its date.':
        'Wo der Preis gelesen wurde, mit Datum.',
    'Width of the dense MLP layers.':
        'Breite der dichten MLP-Schichten.',
    'Window of the local attention layers.':
        'Fenster der lokalen Attention-Schichten.',
    'config.json: {key}':
        'in config.json: {key}',
    'default: {value}':
        'Vorgabe: {value}',
    'experts-only keeps attention in 16 bit (gpt-oss).':
        'experts-only lässt die Attention in 16 Bit (gpt-oss).',
    'gated: SwiGLU/GeGLU (3 matrices); plain: 2 matrices.':
        'gated: SwiGLU/GeGLU (3 Matrizen); plain: 2 Matrizen.',
    'gated_deltanet: Qwen3-Next, Qwen3.5; kimi_delta: Kimi Linear.':
        'gated_deltanet: Qwen3-Next, Qwen3.5; kimi_delta: Kimi Linear (Begriffe wie in '
        'config.json).',
    'generation writes text; embedding and reranking models only read (the RAG step uses them).':
        'generation schreibt Text; Embedding- und Reranking-Modelle lesen nur (der RAG-Schritt '
        'nutzt sie).',
    'layer: LayerNorm with bias.':
        'layer: LayerNorm mit Bias.',
    'llama, qwen3, deepseek_v3 ...':
        'etwa llama, qwen3, deepseek_v3 ...',
    'not set':
        'nicht gesetzt',
    'required':
        'nötig',
    '{field}: {ids} not in the catalog; known: {known}':
        '{field}: {ids} nicht im Katalog; bekannt: {known}',
    '{path} is not valid TOML ({error}); it was left unchanged: fix or move it, then save again.':
        '{path} ist kein gültiges TOML ({error}); die Datei blieb unverändert: Korrigieren oder '
        'verschieben Sie sie, dann speichern Sie erneut.',
    "{linear} of {layers} layers with linear attention (a fixed state per sequence)":
        "{linear} von {layers} Schichten mit linearer Attention (ein fester Zustand je Sequenz)",
    "sparse attention over {k:,} tokens": "Sparse Attention über {k:,} Tokens",
    "speculative-decoding heads (loaded when switched on)":
        "Köpfe für spekulatives Decodieren (geladen, wenn eingeschaltet)",
    "Embedding model": "Embedding-Modell",
    "The catalog's embedding model that embeds the corpus; its size, vector width and cost "
    "come from its architecture.":
        "Das Embedding-Modell aus dem Katalog, das den Korpus einbettet; Größe, Vektorbreite "
        "und Aufwand ergeben sich aus seiner Architektur.",
    "By size (rag.embedding_params, default bge-large-en-v1.5)":
        "Nach Größe (rag.embedding_params, Vorgabe bge-large-en-v1.5)",
    # --- model schema checks (app/domain/catalog.py ModelSpec, MoeSpec) ---
    "experts_per_token ({k}) cannot exceed experts ({e})":
        "experts_per_token ({k}) darf experts ({e}) nicht übersteigen",
    "attention_heads ({heads}) must be a multiple of kv_heads ({kv})":
        "attention_heads ({heads}) muss ein Vielfaches von kv_heads ({kv}) sein",
    "global_layers ({value}) cannot exceed layers ({layers})":
        "global_layers ({value}) darf layers ({layers}) nicht übersteigen",
    "moe.dense_layers cannot exceed layers": "moe.dense_layers darf layers nicht übersteigen",
    "linear_attention.layers ({linear}) must be fewer than layers ({layers}); at least one "
    "layer attends fully":
        "linear_attention.layers ({linear}) muss kleiner sein als layers ({layers}); mindestens "
        "eine Schicht beachtet voll",
    "linear_attention and sliding_window cannot be combined":
        "linear_attention und sliding_window lassen sich nicht kombinieren",
    "sparse_attention (DeepSeek Sparse Attention) needs mla":
        "sparse_attention (DeepSeek Sparse Attention) braucht mla",
    "an encoder (encoder = true) cannot generate text; set task to embedding or reranking":
        "ein Encoder (encoder = true) kann keinen Text erzeugen; setzen Sie task auf embedding "
        "oder reranking",

    # === measurements, validation, site profiles and the test plan (issue 16) ==================
    # --- reading result files (app/measurements)
    "'{file}' (CSV) has a header but no rows": "'{file}' (CSV) hat eine Kopfzeile, aber keine Zeilen",
    "'{file}' (CSV) lacks the column '{column}'": "In '{file}' (CSV) fehlt die Spalte '{column}'",
    "'{file}' (CSV), row {line:,} has {cells:,} cells, the header {columns:,} (is the file cut off?)":
        "'{file}' (CSV), Zeile {line:,} hat {cells:,} Zellen, die Kopfzeile {columns:,} (ist die Datei abgeschnitten?)",
    "'{file}' (CSV), row {line:,}: '{column}' is '{value}', not a number":
        "'{file}' (CSV), Zeile {line:,}: '{column}' ist '{value}', keine Zahl",
    "'{file}' (CSV), row {line:,}: '{column}' is '{value}'; it must be a number of at least 0":
        "'{file}' (CSV), Zeile {line:,}: '{column}' ist '{value}'; erlaubt ist eine Zahl ab 0",
    "'{file}' (CSV), row {line:,}: no value for '{column}'":
        "'{file}' (CSV), Zeile {line:,}: kein Wert für '{column}'",
    "'{file}' (guidellm) holds no benchmark ('benchmarks' is empty)":
        "'{file}' (guidellm) enthält keinen Benchmark ('benchmarks' ist leer)",
    "'{file}' (guidellm), {where}: strategy '{kind}' is not a load AI Sizer can predict (synchronous, concurrent, throughput, constant or poisson)":
        "'{file}' (guidellm), {where}: Die Strategie '{kind}' ist keine Last, die AI Sizer vorhersagen kann (synchronous, concurrent, throughput, constant oder poisson)",
    "'{file}' (guidellm): report schema version {version} is not the one AI Sizer reads (2, guidellm 0.7)":
        "'{file}' (guidellm): Die Schemaversion {version} des Berichts ist nicht die, die AI Sizer liest (2, guidellm 0.7)",
    "'{file}' (guidellm): {where} is not an object": "'{file}' (guidellm): {where} ist kein Objekt",
    "'{file}' (llama-bench) holds no test": "'{file}' (llama-bench) enthält keinen Test",
    "'{file}' (llama-bench), {where}: a combined prompt and generation test (-pg) cannot be split into prefill and decode; run llama-bench with -p and -n only":
        "'{file}' (llama-bench), {where}: Ein kombinierter Prompt- und Generierungstest (-pg) lässt sich nicht in Prefill und Decode trennen; llama-bench nur mit -p und -n ausführen",
    "'{file}' (llama-bench), {where}: n_prompt and n_gen are both 0":
        "'{file}' (llama-bench), {where}: n_prompt und n_gen sind beide 0",
    "'{file}' ({tool}) lacks the field '{field}'": "In '{file}' ({tool}) fehlt das Feld '{field}'",
    "'{file}' ({tool}), {label}: {field} {problem}": "'{file}' ({tool}), {label}: Feld {field}: {problem}",
    "'{file}' ({tool}): '{field}' is in '{unit}'; expected one of {units}":
        "'{file}' ({tool}): '{field}' ist in '{unit}' angegeben; erwartet wird eine der Einheiten {units}",
    "'{file}' ({tool}): '{field}' is in '{unit}'; expected {units}":
        "'{file}' ({tool}): '{field}' ist in '{unit}' angegeben; erwartet wird {units}",
    "'{file}' ({tool}): '{field}' is not a metric with 'unit' and 'avg'":
        "'{file}' ({tool}): '{field}' ist keine Messgröße mit 'unit' und 'avg'",
    "'{file}' ({tool}): '{field}' is {value}, not a number":
        "'{file}' ({tool}): '{field}' ist {value}, keine Zahl",
    "'{file}' ({tool}): '{field}' is {value}; it must be above 0 (did every request fail?)":
        "'{file}' ({tool}): '{field}' ist {value}; der Wert muss über 0 liegen (sind alle Anfragen fehlgeschlagen?)",
    "'{file}' has {size:,} bytes, more than a result file of a load generator ({limit:,} at most)":
        "'{file}' hat {size:,} Bytes, mehr als eine Ergebnisdatei eines Lastgenerators (höchstens {limit:,})",
    "'{file}' is cut off: its JSON ends at line {line:,} before it is complete (was the benchmark interrupted, or the copy incomplete?)":
        "'{file}' ist abgeschnitten: Das JSON endet in Zeile {line:,}, bevor es vollständig ist (wurde der Benchmark abgebrochen oder die Kopie nicht vollständig?)",
    "'{file}' is cut off: its last line ({line:,}) stops before the JSON is complete":
        "'{file}' ist abgeschnitten: Die letzte Zeile ({line:,}) endet, bevor das JSON vollständig ist",
    "'{file}' is empty": "'{file}' ist leer",
    "'{file}' is not a result file AI Sizer reads; it reads: {formats}":
        "'{file}' ist keine Ergebnisdatei, die AI Sizer liest; lesbar sind: {formats}",
    "'{file}' is not text (a result file is JSON, JSON Lines or CSV)":
        "'{file}' ist kein Text (eine Ergebnisdatei ist JSON, JSON Lines oder CSV)",
    "'{file}' is not valid JSON: {error} at line {line:,}, column {column:,}":
        "'{file}' ist kein gültiges JSON: {error} in Zeile {line:,}, Spalte {column:,}",
    "'{file}' is the same file as '{other}' (same SHA-256)":
        "'{file}' ist dieselbe Datei wie '{other}' (gleicher SHA-256)",
    "cannot read '{file}': {reason}": "'{file}' lässt sich nicht lesen: {reason}",
    "no result file given": "keine Ergebnisdatei angegeben",
    "{count:,} files at once; at most {limit:,}": "{count:,} Dateien auf einmal; höchstens {limit:,}",
    "a closed-loop point needs its concurrency": "ein Punkt im geschlossenen Kreis braucht seine Parallelität",
    "a point needs at least one measured figure": "ein Punkt braucht mindestens einen gemessenen Wert",
    "a request-rate point needs its request rate": "ein Punkt mit Anfragerate braucht seine Anfragerate",
    # --- predicted against measured (app/engine/validation.py, site_fit.py)
    "{target}: met ({margin:.0%} to spare, less than the {headroom:.0%} headroom)":
        "{target}: erreicht ({margin:.0%} Reserve, weniger als die {headroom:.0%} Spielraum)",
    "{target}: met with headroom ({margin:.0%} better than the target)":
        "{target}: mit Spielraum erreicht ({margin:.0%} besser als das Ziel)",
    "{target}: missed by {margin:.0%}": "{target}: um {margin:.0%} verfehlt",
    "{target}: not measured at the scenario's load of {users:,.0f} user per replica (measured up to {upto:,.0f})":
        "{target}: bei der Last des Szenarios von {users:,.0f} Nutzer je Replikat nicht gemessen (gemessen bis {upto:,.0f})",
    "{target}: not measured at the scenario's load of {users:,.0f} users per replica (measured up to {upto:,.0f})":
        "{target}: bei der Last des Szenarios von {users:,.0f} Nutzern je Replikat nicht gemessen (gemessen bis {upto:,.0f})",
    "The measurements do not show both prefill and decode speed, so they cannot tell how many replicas the load needs; the plan stays as sized.":
        "Die Messungen zeigen nicht zugleich die Prefill- und die Decode-Geschwindigkeit und können daher nicht sagen, wie viele Replikate die Last braucht; der Plan bleibt wie dimensioniert.",
    "With the measured speed one replica carries {capacity:,} user at the targets":
        "Mit der gemessenen Geschwindigkeit trägt ein Replikat {capacity:,} Nutzer bei den Zielen",
    "With the measured speed one replica carries {capacity:,} users at the targets":
        "Mit der gemessenen Geschwindigkeit trägt ein Replikat {capacity:,} Nutzer bei den Zielen",
    "With the measured speed no load meets both targets on this configuration: more replicas would not help; see the levers in Step 4.":
        "Mit der gemessenen Geschwindigkeit erreicht keine Last beide Ziele in dieser Konfiguration: Mehr Replikate würden nicht helfen; siehe die Hebel in Schritt 4.",
    "The plan's {planned:,} replica for {users:,.0f} users holds (sized: {sized:,} per replica).":
        "Das {planned:,} Replikat des Plans für {users:,.0f} Nutzer reicht (dimensioniert: {sized:,} je Replikat).",
    "The plan's {planned:,} replicas for {users:,.0f} users hold (sized: {sized:,} per replica).":
        "Die {planned:,} Replikate des Plans für {users:,.0f} Nutzer reichen (dimensioniert: {sized:,} je Replikat).",
    "{users:,.0f} users need {replicas:,} replicas, {delta:,} fewer than planned ({planned:,}).":
        "{users:,.0f} Nutzer brauchen {replicas:,} Replikate, {delta:,} weniger als geplant ({planned:,}).",
    "{users:,.0f} users need {replicas:,} replicas, {delta:,} more than planned ({planned:,}).":
        "{users:,.0f} Nutzer brauchen {replicas:,} Replikate, {delta:,} mehr als geplant ({planned:,}).",
    "No inter-token latency or tokens/s was measured, so the decode factor stays at 1.0.":
        "Es wurde weder eine Inter-Token-Latenz noch Tokens/s gemessen; der Decode-Faktor bleibt daher bei 1,0.",
    "No time to first token or prompt time was measured, so the prefill factor stays at 1.0.":
        "Es wurde weder eine Zeit bis zum ersten Token noch eine Prompt-Zeit gemessen; der Prefill-Faktor bleibt daher bei 1,0.",
    "The scenario overrides {names}; the fit scaled those values too, while other scenarios apply a site profile to the catalog's values.":
        "Das Szenario überschreibt {names}; die Anpassung hat diese Werte mitskaliert, während andere Szenarien ein Standortprofil auf die Werte des Katalogs anwenden.",
    "no imported measurement the fit can use (TTFT, inter-token latency, tokens/s or prompt time); import the load test's result files first":
        "keine importierte Messung, die die Anpassung nutzen kann (TTFT, Inter-Token-Latenz, Tokens/s oder Prompt-Zeit); zuerst die Ergebnisdateien des Lasttests importieren",
    "unknown site profile '{value}'; known: {known}": "unbekanntes Standortprofil '{value}'; bekannt: {known}",
    "Site-calibrated: the figures use the factors measured on site (site profile '{profile}'); expected range x{low:,.2f} to x{high:,.2f} (the fit's residuals).":
        "Am Standort kalibriert: Die Werte verwenden die am Standort gemessenen Faktoren (Standortprofil '{profile}'); erwarteter Bereich x{low:,.2f} bis x{high:,.2f} (die Residuen der Anpassung).",
    "{engine} profile, site-calibrated with site profile '{profile}' ({version}, decode x{decode:,.3f}, prefill x{prefill:,.3f}, measured {date}): {files}":
        "Profil {engine}, am Standort kalibriert mit dem Standortprofil '{profile}' ({version}, Decode x{decode:,.3f}, Prefill x{prefill:,.3f}, gemessen am {date}): {files}",
    # --- the test plan's README (app/testplan/render.py)
    "Load test": "Lasttest",
    "Serving the trained model at the scenario's inference settings puts {users:,.0f} users on the replica.":
        "Die Bereitstellung des trainierten Modells mit den Inferenz-Einstellungen des Szenarios legt {users:,.0f} Nutzer auf das Replikat.",
    "Start one replica": "Ein Replikat starten",
    "Run the load": "Die Last fahren",
    "What each level must reach": "Was jede Stufe erreichen muss",
    "Bring the results back": "Die Ergebnisse zurückbringen",
    "The script runs:": "Das Skript führt aus:",
    "Set MODEL to the model's folder (or the name the server loads) and run:":
        "MODEL auf den Ordner des Modells setzen (oder den Namen, den der Server lädt) und ausführen:",
    "Duration": "Dauer",
    "Users or rate": "Nutzer oder Rate",
    "TTFT (range)": "TTFT (Bereich)",
    "Inter-token latency (range)": "Inter-Token-Latenz (Bereich)",
    "Tokens/s per user (range)": "Tokens/s je Nutzer (Bereich)",
    "Output tokens/s (range)": "Ausgabe-Tokens/s (Bereich)",
    "Passes when": "Bestanden, wenn",
    "TTFT ≤ {value}": "TTFT höchstens {value}",
    "{value} tokens/s per user or more": "{value} Tokens/s je Nutzer oder mehr",
    "no failed request": "keine fehlgeschlagene Anfrage",
    "sweep": "Staffel",
    "beyond saturation": "über der Sättigung",
    "half the load's rate": "halbe Rate der Last",
    "the load's rate": "Rate der Last",
    "the saturation rate": "Rate der Sättigung",
    "Written by AI Sizer {version} on {date} from the sizing of this scenario. The figures are predictions for one replica: a sizing is an estimate until it is measured under representative load.":
        "Geschrieben von AI Sizer {version} am {date} aus der Dimensionierung dieses Szenarios. Die Werte sind Vorhersagen für ein Replikat: Eine Dimensionierung ist eine Schätzung, bis sie unter repräsentativer Last gemessen ist.",
    "One replica is {model} on {gpus:,} x {gpu} (tensor parallel {tp:,}, pipeline parallel {pp:,}) under {engine}, weights in {weights}, KV cache in {kv}, {context:,} tokens of context per sequence; the requests have {prompt:,} prompt and {output:,} output tokens.":
        "Ein Replikat ist {model} auf {gpus:,} x {gpu} (Tensor-Parallelität {tp:,}, Pipeline-Parallelität {pp:,}) unter {engine}, Gewichte in {weights}, KV-Cache in {kv}, {context:,} Tokens Kontext je Sequenz; die Anfragen haben {prompt:,} Prompt- und {output:,} Ausgabe-Tokens.",
    "The scenario's {total:,} users put {users:,.0f} on each replica: {load:,} replicas carry the load, {replicas:,} with the redundancy ({redundancy}). Test one replica directly, not through the load balancer, so that the figures compare with the per-replica figures below.":
        "Die {total:,} Nutzer des Szenarios legen {users:,.0f} auf jedes Replikat: {load:,} Replikate tragen die Last, {replicas:,} mit der Redundanz ({redundancy}). Ein Replikat direkt testen, nicht über den Load Balancer, damit die Werte mit den Werten je Replikat unten vergleichbar sind.",
    "The scenario runs each replica at saturation ({users:,.0f} sequences); the plan has {replicas:,} replicas.":
        "Das Szenario fährt jedes Replikat in der Sättigung ({users:,.0f} Sequenzen); der Plan hat {replicas:,} Replikate.",
    "The range is x{low:,.2f} to x{high:,.2f} of the expected figures (the calibration residuals of the {engine} profile).":
        "Der Bereich ist x{low:,.2f} bis x{high:,.2f} der erwarteten Werte (die Kalibrierungsresiduen des Profils {engine}).",
    "The range is x{low:,.2f} to x{high:,.2f} of the expected figures, from the site profile '{profile}' (site-calibrated).":
        "Der Bereich ist x{low:,.2f} bis x{high:,.2f} der erwarteten Werte, aus dem Standortprofil '{profile}' (am Standort kalibriert).",
    "The scenario names no particular engine (generic profile); the launch command is vLLM's, with the generic profile's settings.":
        "Das Szenario nennt keine bestimmte Engine (generisches Profil); der Startbefehl ist der von vLLM, mit den Einstellungen des generischen Profils.",
    "Serve a checkpoint already quantised to {fmt} (the engine reads the format from the checkpoint's configuration); the sizing assumed weights in {fmt}.":
        "Einen bereits nach {fmt} quantisierten Checkpoint bereitstellen (die Engine liest das Format aus der Konfiguration des Checkpoints); die Dimensionierung nahm Gewichte in {fmt} an.",
    "The engine quantises the {native} checkpoint to {fmt} when it loads (--quantization {flag}); a checkpoint already in {fmt} works too.":
        "Die Engine quantisiert den {native}-Checkpoint beim Laden nach {fmt} (--quantization {flag}); ein Checkpoint, der bereits in {fmt} vorliegt, geht auch.",
    "{engine} has no INT8 KV cache; the command uses its default (16 bit), which needs more memory than the sizing assumed: size with an FP8 KV cache instead.":
        "{engine} hat keinen INT8-KV-Cache; der Befehl nutzt die Voreinstellung (16 Bit), die mehr Speicher braucht als angenommen: stattdessen mit einem FP8-KV-Cache dimensionieren.",
    "llama-server shares --ctx-size among its --parallel slots, so the context is the sized context per sequence times the slots. Releases before mid-2025 take --flash-attn without a value.":
        "llama-server teilt --ctx-size auf seine --parallel Slots auf; der Kontext ist daher der dimensionierte Kontext je Sequenz mal die Slots. Versionen vor Mitte 2025 nehmen --flash-attn ohne Wert.",
    "The scenario is a training run; this plan tests serving the trained model as the sizing's Steps 2 and 4 describe it.":
        "Das Szenario ist ein Training; dieser Plan testet die Bereitstellung des trainierten Modells, wie sie die Schritte 2 und 4 der Dimensionierung beschreiben.",
    "With the server up, run one load generator (vllm, sglang, aiperf, genai-perf, guidellm, llama-bench; default vllm). Each level saves its results under results/.":
        "Bei laufendem Server einen Lastgenerator ausführen (vllm, sglang, aiperf, genai-perf, guidellm, llama-bench; Voreinstellung vllm). Jede Stufe speichert ihre Ergebnisse unter results/.",
    "With the server up, run one load generator (vllm, sglang, aiperf, genai-perf, guidellm; default vllm). Each level saves its results under results/.":
        "Bei laufendem Server einen Lastgenerator ausführen (vllm, sglang, aiperf, genai-perf, guidellm; Voreinstellung vllm). Jede Stufe speichert ihre Ergebnisse unter results/.",
    "The levels: a concurrency sweep from one user through the scenario's load to saturation and beyond, then the same load as requests arriving at a rate (Poisson). All levels take about {hours:,.1f} hours with one tool, at the predicted speed. The commands per tool:":
        "Die Stufen: eine Staffel der Parallelität von einem Nutzer über die Last des Szenarios bis zur Sättigung und darüber, dann dieselbe Last als Anfragen, die mit einer Rate eintreffen (Poisson). Alle Stufen dauern mit einem Werkzeug etwa {hours:,.1f} Stunden bei der vorhergesagten Geschwindigkeit. Die Befehle je Werkzeug:",
    "Expected figures are means over each level's requests, with the range in brackets. A batch job has no per-user targets: a level passes when it is no worse than the pessimistic end of the range. A level outside the range means the site runs differently from the model: import the results and let AI Sizer fit the site's factors.":
        "Erwartete Werte sind Mittelwerte über die Anfragen jeder Stufe, der Bereich steht in Klammern. Ein Batch-Auftrag hat keine Ziele je Nutzer: Eine Stufe ist bestanden, wenn sie nicht schlechter ist als das pessimistische Ende des Bereichs. Eine Stufe außerhalb des Bereichs heißt, dass der Standort anders läuft als das Modell: die Ergebnisse importieren und AI Sizer die Faktoren des Standorts anpassen lassen.",
    "Expected figures are means over each level's requests, with the range in brackets. Up to the scenario's load the targets apply (TTFT at most {ttft}, {speed:,.0f} tokens/s per user or more, where the sizing expects them met); above it, a level passes when it is no worse than the pessimistic end of the range. A level outside the range means the site runs differently from the model: import the results and let AI Sizer fit the site's factors.":
        "Erwartete Werte sind Mittelwerte über die Anfragen jeder Stufe, der Bereich steht in Klammern. Bis zur Last des Szenarios gelten die Ziele (TTFT höchstens {ttft}, {speed:,.0f} Tokens/s je Nutzer oder mehr, wo die Dimensionierung sie erreicht erwartet); darüber ist eine Stufe bestanden, wenn sie nicht schlechter ist als das pessimistische Ende des Bereichs. Eine Stufe außerhalb des Bereichs heißt, dass der Standort anders läuft als das Modell: die Ergebnisse importieren und AI Sizer die Faktoren des Standorts anpassen lassen.",
    "Import the result files into AI Sizer: the Validation step shows them beside the prediction, judges the targets and fits the site's decode and prefill factors. From the command line:":
        "Die Ergebnisdateien in AI Sizer importieren: Der Schritt Validierung zeigt sie neben der Vorhersage, beurteilt die Ziele und passt die Decode- und Prefill-Faktoren des Standorts an. Auf der Kommandozeile:",
    "or drop the files onto the Validation step of the window. The pass figures are also in {file} for a spreadsheet.":
        "oder die Dateien auf den Schritt Validierung im Fenster ziehen. Die Werte zum Bestehen stehen für eine Tabellenkalkulation auch in {file}.",

    # --- the Validation step and File > Export test plan (app/ui/pages/validation.py)
    "6 Validation": "6 Validierung",
    "Whether the sizing holds on site. Export the test plan (File > Export test plan), run it on one replica, then drop the result files here or import them: each point is shown beside the prediction, each target gets a verdict, and the site's decode and prefill factors are fitted and can be saved as a site profile.":
        "Ob die Dimensionierung am Standort hält. Den Testplan exportieren (Datei > Testplan exportieren), auf einem Replikat ausführen, dann die Ergebnisdateien hierher ziehen oder importieren: Jeder Punkt erscheint neben der Vorhersage, jedes Ziel erhält ein Urteil, und die Decode- und Prefill-Faktoren des Standorts werden angepasst und lassen sich als Standortprofil speichern.",
    "Export test plan…": "Testplan exportieren…",
    "Export test plan into folder": "Testplan in Ordner exportieren",
    "{folder} already holds {names}. Replace them?": "{folder} enthält bereits {names}. Ersetzen?",
    "Cannot write into {folder}: {reason}": "In {folder} lässt sich nicht schreiben: {reason}",
    "Test plan written to {folder}.": "Testplan nach {folder} geschrieben.",
    "Import results…": "Ergebnisse importieren…",
    "Import load-test results": "Ergebnisse des Lasttests importieren",
    "Load-test results (*.json *.jsonl *.csv);;All files (*)":
        "Ergebnisse von Lasttests (*.json *.jsonl *.csv);;Alle Dateien (*)",
    "Import measurements": "Messungen importieren",
    "Remove the measurements": "Die Messungen entfernen",
    "Nothing was imported:": "Nichts wurde importiert:",
    "Drop result files here: vllm bench serve --save-result JSON, SGLang bench_serving JSONL, AIPerf or GenAI-Perf profile exports, guidellm JSON reports, llama-bench -o json, or a CSV with concurrency, ttft_ms, itl_ms and output_tokens_per_s.":
        "Ergebnisdateien hierher ziehen: vllm bench serve --save-result JSON, SGLang bench_serving JSONL, Profilexporte von AIPerf oder GenAI-Perf, guidellm-Berichte als JSON, llama-bench -o json oder ein CSV mit concurrency, ttft_ms, itl_ms und output_tokens_per_s.",
    "No measurements yet: the Step 4 figures are the prediction alone.":
        "Noch keine Messungen: Die Werte aus Schritt 4 sind allein die Vorhersage.",
    "{points} measured points from {files} files.": "{points} Messpunkte aus {files} Dateien.",
    "(outside the range)": "(außerhalb des Bereichs)",
    "Decode x{decode}, prefill x{prefill} on the catalog's factors; median error {before} with the catalog's factors, {after} with the site's; the site profile's range would be x{low} to x{high}.":
        "Decode x{decode}, Prefill x{prefill} auf die Faktoren des Katalogs; mittlere Abweichung {before} mit den Faktoren des Katalogs, {after} mit denen des Standorts; der Bereich des Standortprofils wäre x{low} bis x{high}.",
    "Engine version measured": "Gemessene Engine-Version",
    "Operator's note": "Notiz des Betreibers",
    "for example 0.11.0": "zum Beispiel 0.11.0",
    "where, when, what was special": "wo, wann, was besonders war",
    "Save as site profile": "Als Standortprofil speichern",
    "Saved site profile '{profile}' into {path}. Sizings on this GPU and engine now use it (site-calibrated).":
        "Standortprofil '{profile}' in {path} gespeichert. Dimensionierungen auf dieser GPU und Engine verwenden es jetzt (am Standort kalibriert).",
}
