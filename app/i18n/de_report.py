"""German texts of the PDF report (app/report), keyed by the English template.

Merged into the German catalog by ``app.i18n.CATALOGS``. Placeholders keep their names and
format specs; numbers are localised by ``app.i18n.tr``. Engine sentences (explanations,
warnings, reasons) are translated in ``app/i18n/de.py``.
"""

MESSAGES: dict[str, str] = {
    # --- document, cover, header and footer
    "Sizing report: {name}": "Sizing-Bericht: {name}",
    "LLM infrastructure sizing report": "Sizing-Bericht für LLM-Infrastruktur",
    "Contents": "Inhalt",
    "Page {page} of {total}": "Seite {page} von {total}",
    "AI Sizer {version} · {date}": "AI Sizer {version} · {date}",
    "Customer": "Kunde",
    "Project": "Projekt",
    "Date": "Datum",
    "Author": "Autor",
    "Tool": "Werkzeug",
    "AI Sizer {version} (result schema {schema})": "AI Sizer {version} (Ergebnisschema {schema})",
    "Catalog versions": "Katalogversionen",
    "Signature": "Signatur",
    "signed by {name} ({organisation})": "signiert von {name} ({organisation})",
    "not signed": "nicht signiert",
    "This report sizes the infrastructure that serves {model} for the workload below: GPUs "
    "and their memory, speed and latency, redundancy, servers, power and cooling. Every "
    "figure comes from the scenario and the result attached to this PDF (scenario.json and "
    "result.json); the same files reproduce the report with AI Sizer.":
        "Dieser Bericht dimensioniert die Infrastruktur, die {model} für die unten "
        "beschriebene Last bereitstellt: GPUs und ihr Speicher, Geschwindigkeit und Latenz, "
        "Redundanz, Server, Strom und Kühlung. Jede Zahl stammt aus dem Szenario und dem "
        "Ergebnis, die diesem PDF beiliegen (scenario.json und result.json); mit denselben "
        "Dateien erzeugt AI Sizer den Bericht erneut.",
    "The figures are estimates from a calibrated model of the hardware and the serving "
    "engine, with a band from its calibration errors (section {accuracy}); the validation "
    "plan (section {plan}) says how to check them on site.":
        "Die Zahlen sind Schätzungen aus einem kalibrierten Modell der Hardware und der "
        "Serving-Engine, mit einer Bandbreite aus seinen Kalibrierfehlern (Abschnitt "
        "{accuracy}); der Validierungsplan (Abschnitt {plan}) beschreibt, wie sie vor Ort "
        "geprüft werden.",
    # --- 1 executive summary
    "Executive summary": "Zusammenfassung",
    "Recommended configuration": "Empfohlene Konfiguration",
    "GPUs": "GPUs",
    "{n} x {gpu} per replica (tensor parallel {t}, pipeline parallel {p})":
        "{n} x {gpu} je Replikat (Tensor-Parallelität {t}, Pipeline-Parallelität {p})",
    "Number formats": "Zahlenformate",
    "weights {weights}, KV cache {kv}": "Gewichte {weights}, KV-Cache {kv}",
    "Serving engine": "Serving-Engine",
    "Replicas": "Replikate",
    "{replicas} in total: {load} for the load, redundancy {redundancy}":
        "{replicas} insgesamt: {load} für die Last, Redundanz {redundancy}",
    "Servers": "Server",
    "{nodes} x {server}, {gpus} GPUs in total": "{nodes} x {server}, {gpus} GPUs insgesamt",
    "Configuration": "Konfiguration",
    "given in the scenario": "im Szenario vorgegeben",
    "chosen by the tool, ranked by {rank}": "vom Werkzeug gewählt, Rangfolge nach {rank}",
    "Verdict": "Bewertung",
    "Targets": "Ziele",
    "Target": "Ziel",
    "Required": "Gefordert",
    "Expected at {users:,.0f} users": "Erwartet bei {users:,.0f} Nutzern",
    "Band": "Bandbreite",
    "Result": "Ergebnis",
    "Time to first token": "Zeit bis zum ersten Token",
    "Tokens/s per user": "Tokens/s je Nutzer",
    "Memory at peak context": "Speicher bei maximalem Kontext",
    "≤ {usable} usable per GPU": "≤ {usable} nutzbar je GPU",
    "{needed} per GPU": "{needed} je GPU",
    "Batch completion": "Batch-Laufzeit",
    "met": "erfüllt",
    "missed": "verfehlt",
    "fits": "passt",
    "does not fit": "passt nicht",
    "Key figures": "Kennzahlen",
    "At the scenario's load (one replica)": "Bei der Last des Szenarios (ein Replikat)",
    "{users:,.0f} users: {speed:,.1f} tokens/s each, first token after {ttft}, {total:,.0f} "
    "output tokens/s in all":
        "{users:,.0f} Nutzer: je {speed:,.1f} Tokens/s, erstes Token nach {ttft}, "
        "{total:,.0f} Ausgabe-Tokens/s insgesamt",
    "Users per replica meeting both targets": "Nutzer je Replikat, die beide Ziele erreichen",
    "Saturation (one replica)": "Sättigung (ein Replikat)",
    "{total:,.0f} output tokens/s with {users:,.0f} users":
        "{total:,.0f} Ausgabe-Tokens/s mit {users:,.0f} Nutzern",
    "Hardware": "Hardware",
    "{gpus} GPUs in {nodes} servers, {racks} rack(s)":
        "{gpus} GPUs in {nodes} Servern, {racks} Rack(s)",
    "Power": "Leistung",
    "{it:,.1f} kW IT, {facility:,.1f} kW with cooling (PUE {pue})":
        "{it:,.1f} kW IT, {facility:,.1f} kW mit Kühlung (PUE {pue})",
    "Energy per year": "Energie pro Jahr",
    "Capital cost (indicative)": "Investitionskosten (Richtwert)",
    "no price in the catalog": "kein Preis im Katalog",
    "Warnings": "Warnungen",
    # verdicts, kinds, rankings, words passed as parameters
    "meets targets": "erreicht die Ziele",
    "misses TTFT": "verfehlt TTFT",
    "misses tokens/s": "verfehlt Tokens/s",
    "online inference": "Online-Inferenz",
    "batch inference": "Batch-Inferenz",
    "fine tuning": "Feinabstimmung",
    "pretraining": "Vortraining",
    "lowest capital cost": "niedrigsten Investitionskosten",
    "lowest power draw": "niedrigster Leistungsaufnahme",
    "fewest GPUs": "wenigsten GPUs",
    "most tokens per dollar": "meisten Tokens pro Dollar",
    "air cooling": "Luftkühlung",
    "rear-door heat exchangers": "Rücktür-Wärmetauscher",
    "direct liquid cooling": "direkte Flüssigkühlung",
    "generic engine": "generische Engine",
    "yes": "ja",
    "no": "nein",
    "none": "keine",
    "self-signed": "selbstsigniert",
    # --- 2 requirements
    "Requirements": "Anforderungen",
    "What the scenario asks for, after the defaults were filled in (every default is listed "
    "with its source in section {n}).":
        "Was das Szenario verlangt, nach dem Einsetzen der Standardwerte (jeder Standardwert "
        "steht mit seiner Quelle in Abschnitt {n}).",
    "Scenario": "Szenario",
    "Model": "Modell",
    "{name} ({id}): {total:,.1f} billion parameters, {layers} layers, {kv} KV heads, context "
    "limit {context:,} tokens":
        "{name} ({id}): {total:,.1f} Milliarden Parameter, {layers} Schichten, {kv} KV-Köpfe, "
        "Kontextgrenze {context:,} Tokens",
    "{name} ({id}): {total:,.1f} billion parameters, {active:,.1f} billion active per token, "
    "{layers} layers, {kv} KV heads, context limit {context:,} tokens":
        "{name} ({id}): {total:,.1f} Milliarden Parameter, davon {active:,.1f} Milliarden "
        "aktiv je Token, {layers} Schichten, {kv} KV-Köpfe, Kontextgrenze {context:,} Tokens",
    "Workload": "Last",
    "Concurrent users": "Gleichzeitige Nutzer",
    "as many as fit (saturation)": "so viele wie passen (Sättigung)",
    "Request": "Anfrage",
    "{prompt:,} prompt tokens, {output:,} output tokens, up to {context:,} tokens of context":
        "{prompt:,} Prompt-Tokens, {output:,} Ausgabe-Tokens, bis zu {context:,} Tokens "
        "Kontext",
    "Batch volume": "Batch-Volumen",
    "{tokens:,.0f} output tokens per day, {requests:,.0f} requests per hour, to finish within "
    "{window} h":
        "{tokens:,.0f} Ausgabe-Tokens pro Tag, {requests:,.0f} Anfragen pro Stunde, fertig "
        "innerhalb von {window} h",
    "time to first token at most {ttft}": "Zeit bis zum ersten Token höchstens {ttft}",
    "at least {speed:,.1f} tokens/s per user": "mindestens {speed:,.1f} Tokens/s je Nutzer",
    "none (throughput only)": "keine (nur Durchsatz)",
    "weights {weights}, KV cache {kv}; formats allowed: {allowed}":
        "Gewichte {weights}, KV-Cache {kv}; erlaubte Formate: {allowed}",
    "given: {n} x {gpu} (tensor parallel {t}, pipeline parallel {p})":
        "vorgegeben: {n} x {gpu} (Tensor-Parallelität {t}, Pipeline-Parallelität {p})",
    "chosen by the tool among {gpus}, up to {most} GPUs per replica, ranked by {rank}":
        "vom Werkzeug gewählt unter {gpus}, bis zu {most} GPUs je Replikat, Rangfolge nach "
        "{rank}",
    "every GPU in the catalog": "allen GPUs des Katalogs",
    "{engine}: memory fraction {fraction}, batch limit {batch:,} sequences, {tokens:,} "
    "tokens per step":
        "{engine}: Speicheranteil {fraction}, Batch-Grenze {batch:,} Sequenzen, {tokens:,} "
        "Tokens je Schritt",
    "Availability": "Verfügbarkeit",
    "redundancy {redundancy}, storage tier '{tier}'":
        "Redundanz {redundancy}, Speicherklasse '{tier}'",
    "Sovereignty": "Souveränität",
    "on premises: {on_premises}; air-gapped: {air_gapped}; region: {region}":
        "im eigenen Rechenzentrum: {on_premises}; vom Netz getrennt: {air_gapped}; Region: "
        "{region}",
    "Factors set by the user": "Vom Nutzer gesetzte Faktoren",
    # --- 3 memory
    "Memory": "Speicher",
    "What one GPU of a replica must hold when every user is at the maximum context, against "
    "what the serving engine may use.":
        "Was eine GPU eines Replikats halten muss, wenn jeder Nutzer den maximalen Kontext "
        "erreicht, verglichen mit dem, was die Serving-Engine nutzen darf.",
    "One GPU": "Eine GPU",
    "Weights": "Gewichte",
    "KV cache at peak context": "KV-Cache bei maximalem Kontext",
    "Runtime and activations": "Laufzeit und Aktivierungen",
    "Total needed": "Bedarf insgesamt",
    "Usable by the engine": "Für die Engine nutzbar",
    "GPU memory": "GPU-Speicher",
    "Whole replica": "Ganzes Replikat",
    "Parameters": "Parameter",
    "{total:,.2f} billion ({active:,.2f} billion active)":
        "{total:,.2f} Milliarden ({active:,.2f} Milliarden aktiv)",
    "Weights, whole replica": "Gewichte, ganzes Replikat",
    "KV cache per token": "KV-Cache je Token",
    "KV cache per sequence at {context:,} tokens": "KV-Cache je Sequenz bei {context:,} Tokens",
    "KV cache for {users:,} sequences": "KV-Cache für {users:,} Sequenzen",
    "{peak} at peak context, {average} at the average context ({tokens:,.0f} tokens)":
        "{peak} bei maximalem Kontext, {average} beim mittleren Kontext ({tokens:,.0f} Tokens)",
    "Sequences that fit at peak context": "Sequenzen, die bei maximalem Kontext passen",
    "{fit:,} per replica (engine batch limit {limit:,})":
        "{fit:,} je Replikat (Batch-Grenze der Engine {limit:,})",
    "Fits": "Passt",
    "weights": "Gewichte",
    "runtime and activations": "Laufzeit und Aktivierungen",
    "memory of one GPU [GB]": "Speicher einer GPU [GB]",
    "usable {value:,.1f} GB": "nutzbar {value:,.1f} GB",
    "GPU memory {value:,.1f} GB": "GPU-Speicher {value:,.1f} GB",
    "Figure: memory of one GPU at peak context.":
        "Abbildung: Speicher einer GPU bei maximalem Kontext.",
    "How the memory was found": "Wie der Speicherbedarf ermittelt wurde",
    # --- 4 GPU selection
    "GPU selection": "GPU-Auswahl",
    "Chosen:": "Gewählt:",
    "The configuration was given in the scenario and is evaluated as given; no alternatives "
    "were ranked. Leave out the hardware block of the scenario to let the tool choose.":
        "Die Konfiguration ist im Szenario vorgegeben und wird so bewertet; Alternativen "
        "wurden nicht verglichen. Ohne den Hardware-Block im Szenario wählt das Werkzeug "
        "selbst.",
    "{count:,} other configurations were evaluated with the same code and ranked by {rank}; "
    "the first {shown} are listed with the reason each lost (all of them are in "
    "result.json).":
        "{count:,} weitere Konfigurationen wurden mit demselben Code bewertet und nach {rank} "
        "gereiht; die ersten {shown} stehen hier mit dem Grund, warum sie unterlagen (alle "
        "stehen in result.json).",
    "GPU": "GPU",
    "GPUs (t x p)": "GPUs (t x p)",
    "Formats": "Formate",
    "TTFT": "TTFT",
    "GPUs in total": "GPUs insgesamt",
    "Capital": "Investition",
    "Why it lost": "Warum unterlegen",
    "{more:,} more in result.json.": "{more:,} weitere in result.json.",
    # --- 5 performance
    "Performance": "Leistung",
    "One replica at three operating points. Each figure is expected to lie between x{low} "
    "and x{high} of the value shown (the band, from the calibration residuals of the "
    "serving engine's profile); times scale inversely.":
        "Ein Replikat in drei Betriebspunkten. Jede Zahl liegt voraussichtlich zwischen "
        "x{low} und x{high} des gezeigten Werts (die Bandbreite, aus den Kalibrierresten des "
        "Profils der Serving-Engine); Zeiten verhalten sich umgekehrt.",
    "one user": "ein Nutzer",
    "scenario load": "Last des Szenarios",
    "saturation": "Sättigung",
    "Inter-token latency": "Latenz zwischen Tokens",
    "Output tokens/s (replica)": "Ausgabe-Tokens/s (Replikat)",
    "Requests/s (replica)": "Anfragen/s (Replikat)",
    "tokens/s per user": "Tokens/s je Nutzer",
    "output tokens/s (replica)": "Ausgabe-Tokens/s (Replikat)",
    "concurrent users (one replica)": "gleichzeitige Nutzer (ein Replikat)",
    "scenario: {users:,.0f} users": "Szenario: {users:,.0f} Nutzer",
    "scenario: {tokens:,} tokens": "Szenario: {tokens:,} Tokens",
    "expected": "erwartet",
    "expected, one user": "erwartet, ein Nutzer",
    "band": "Bandbreite",
    "band (pessimistic to optimistic)": "Bandbreite (pessimistisch bis optimistisch)",
    "target": "Ziel",
    "naive figure": "naive Zahl",
    "prompt length [tokens] (log scale)": "Prompt-Länge [Tokens] (logarithmisch)",
    "TTFT [s]": "TTFT [s]",
    "No curve: the result holds no points for this chart.":
        "Keine Kurve: das Ergebnis enthält für diese Abbildung keine Punkte.",
    "Figure: tokens/s each user sees against concurrent users, with the band, the target and "
    "the naive figure.":
        "Abbildung: Tokens/s je Nutzer über der Zahl gleichzeitiger Nutzer, mit Bandbreite, "
        "Ziel und naiver Zahl.",
    "Figure: output tokens/s of one replica against concurrent users.":
        "Abbildung: Ausgabe-Tokens/s eines Replikats über der Zahl gleichzeitiger Nutzer.",
    "Figure: time to first token of one user alone against prompt length.":
        "Abbildung: Zeit bis zum ersten Token eines einzelnen Nutzers über der Prompt-Länge.",
    "The naive figure": "Die naive Zahl",
    "Where the time of a decode step goes": "Wohin die Zeit eines Decode-Schritts geht",
    "Part": "Anteil",
    "Reading the weights": "Lesen der Gewichte",
    "Reading the KV cache": "Lesen des KV-Cache",
    "Compute": "Rechnen",
    "Other users' prompts (prefill share)": "Prompts anderer Nutzer (Prefill-Anteil)",
    "Communication between GPUs": "Kommunikation zwischen GPUs",
    "Overheads": "Verwaltungsaufwand",
    "Decode step at the scenario's load (memory-bound)":
        "Decode-Schritt bei der Last des Szenarios (speichergebunden)",
    "Decode step at the scenario's load (compute-bound)":
        "Decode-Schritt bei der Last des Szenarios (rechengebunden)",
    "Reading the weights overlaps with compute and the prefill share (the longer of the two "
    "counts), so the step is shorter than the sum of its parts.":
        "Das Lesen der Gewichte überlappt mit Rechnen und Prefill-Anteil (es zählt das "
        "Längere von beiden); deshalb ist der Schritt kürzer als die Summe seiner Teile.",
    "How the performance was found": "Wie die Leistung ermittelt wurde",
    "What would meet the missed targets": "Was die verfehlten Ziele erreichen würde",
    "Change": "Änderung",
    "Figure after": "Wert danach",
    "Meets both": "Beide Ziele",
    "Note": "Hinweis",
    "time to first token": "Zeit bis zum ersten Token",
    "{value:,.1f} tokens/s": "{value:,.1f} Tokens/s",
    # --- 6 redundancy and scale
    "Redundancy and scale": "Redundanz und Skalierung",
    "Redundancy": "Redundanz",
    "{replicas} ({load} carry the load)": "{replicas} ({load} tragen die Last)",
    "{nodes} x {server} ({per_node} GPUs each, {replicas} replica(s) per server, {span} "
    "server(s) per replica)":
        "{nodes} x {server} (je {per_node} GPUs, {replicas} Replikat(e) je Server, {span} "
        "Server je Replikat)",
    "Autoscaling": "Autoskalierung",
    "{low} to {high} replicas": "{low} bis {high} Replikate",
    "Cold start": "Kaltstart",
    "about {time} from storage tier '{tier}'": "etwa {time} aus Speicherklasse '{tier}'",
    # --- 7 infrastructure
    "Infrastructure (first-order figures)": "Infrastruktur (Zahlen erster Ordnung)",
    "First-order figures from the sizing: power from the servers' and GPUs' ratings, heat, "
    "racks by space and power, energy and an indicative capital cost. The detailed "
    "infrastructure sections (rack layout, electrical feeds, cooling design, network fabric, "
    "storage, topology diagram and bill of materials) come with the infrastructure feature "
    "of AI Sizer and are not part of this report.":
        "Zahlen erster Ordnung aus der Dimensionierung: Leistung aus den Nennwerten der "
        "Server und GPUs, Wärme, Racks nach Platz und Leistung, Energie und ein Richtwert der "
        "Investitionskosten. Die ausführlichen Infrastruktur-Abschnitte (Rack-Belegung, "
        "Stromzuführung, Kühlkonzept, Netzwerk-Fabric, Speicher, Topologie-Diagramm und "
        "Stückliste) kommen mit der Infrastruktur-Funktion von AI Sizer und sind nicht Teil "
        "dieses Berichts.",
    "IT power (maximum)": "IT-Leistung (maximal)",
    "Power usage effectiveness (PUE)": "Energieeffizienz des Rechenzentrums (PUE)",
    "Facility power": "Leistung des Rechenzentrums",
    "Heat to remove": "Abzuführende Wärme",
    "{btu:,.0f} BTU/h ({tons:,.2f} tons of refrigeration)":
        "{btu:,.0f} BTU/h ({tons:,.2f} Kältetonnen)",
    "Cooling": "Kühlung",
    "Racks": "Racks",
    "of which GPUs": "davon GPUs",
    "of which servers": "davon Server",
    "Cost note: {note}": "Hinweis zu den Kosten: {note}",
    # --- 7 infrastructure (detailed, when the result has it)
    "Infrastructure": "Infrastruktur",
    "The physical deployment around the replicas: power, cooling, racks, electrical feeds, "
    "networks, storage, the topology and the bill of materials with an indicative cost.":
        "Die physische Umgebung der Replikate: Strom, Kühlung, Racks, Stromzuführung, Netze, "
        "Speicher, die Topologie und die Stückliste mit Richtkosten.",
    "One server (maximum / typical)": "Ein Server (maximal / typisch)",
    "Compute, network, storage": "Rechnen, Netzwerk, Speicher",
    "IT power (maximum / typical)": "IT-Leistung (maximal / typisch)",
    "Facility power (PUE {pue})": "Leistung des Rechenzentrums (PUE {pue})",
    "Airflow": "Luftstrom",
    "{cfm:,.0f} CFM ({share:,.0f} % of the heat by air)":
        "{cfm:,.0f} CFM ({share:,.0f} % der Wärme über Luft)",
    "Liquid flow": "Flüssigkeitsstrom",
    "Rack limit": "Grenze je Rack",
    "Electrical feeds": "Stromzuführung",
    "Supply": "Versorgung",
    "{volts:,.0f} V three-phase, power factor {pf}":
        "{volts:,.0f} V Drehstrom, Leistungsfaktor {pf}",
    "Feeds": "Einspeisungen",
    "A and B (each carries the whole rack)": "A und B (jede trägt das ganze Rack)",
    "one feed": "eine Einspeisung",
    "Highest rack current": "Höchster Rack-Strom",
    "Rack PDUs": "Rack-PDUs",
    "{per_rack} per rack and feed, {total} in total, rated {amps:,.0f} A":
        "{per_rack} je Rack und Einspeisung, {total} insgesamt, für {amps:,.0f} A",
    "Rack": "Rack",
    "Kind": "Art",
    "Units": "HE",
    "Power / limit": "Leistung / Grenze",
    "Holds": "Enthält",
    "Networks": "Netze",
    "Scale-up:": "Scale-up:",
    "Scale-out fabric:": "Scale-out-Fabric:",
    "{tiers}-tier fat tree of {switch} ({radix} ports of {speed:,.0f} Gb/s): {leaves} leaf, "
    "{spines} spine and {cores} core switches for {endpoints:,} GPUs, {nics:,} NICs, "
    "{transceivers:,} transceivers, cables per tier {cables}, oversubscription {over}:1 (two "
    "tiers reach {limit:,} endpoints).":
        "Fat Tree mit {tiers} Ebenen aus {switch} ({radix} Ports zu {speed:,.0f} Gb/s): "
        "{leaves} Leaf-, {spines} Spine- und {cores} Core-Switches für {endpoints:,} GPUs, "
        "{nics:,} Netzwerkkarten, {transceivers:,} Transceiver, Kabel je Ebene {cables}, "
        "Überbuchung {over}:1 (zwei Ebenen erreichen {limit:,} Endpunkte).",
    "Network": "Netz",
    "Switch": "Switch",
    "Count": "Anzahl",
    "Ports used": "Belegte Ports",
    "Storage": "Speicher",
    "Storage class '{preset}': {read} read and {write} write per server; local NVMe {local}.":
        "Speicherklasse '{preset}': {read} Lesen und {write} Schreiben je Server; lokales "
        "NVMe {local}.",
    "Tier": "Klasse",
    "Purpose": "Zweck",
    "Capacity": "Kapazität",
    "Read": "Lesen",
    "Write": "Schreiben",
    "Total": "Summe",
    "Topology": "Topologie",
    "Figure: servers, their GPUs and the networks that connect them (schematic).":
        "Abbildung: Server, ihre GPUs und die Netze, die sie verbinden (schematisch).",
    "{network}: {count} x {switch}": "{network}: {count} x {switch}",
    "server {n}": "Server {n}",
    "{nodes} x {server}, {gpus} GPUs each; scale-up: {scale_up}":
        "{nodes} x {server}, je {gpus} GPUs; Scale-up: {scale_up}",
    "Bill of materials and cost": "Stückliste und Kosten",
    "Item": "Position",
    "Quantity": "Menge",
    "Unit price": "Stückpreis",
    "* estimated with a planning rule where no price is published. Prices are indicative and "
    "dated; street prices vary.":
        "* mit einer Planungsregel geschätzt, wo kein Preis veröffentlicht ist. Preise sind "
        "Richtwerte mit Datum; Marktpreise schwanken.",
    "Running cost": "Laufende Kosten",
    "{kwh:,.0f} kWh at {use:,.0f} % utilisation, {cost}":
        "{kwh:,.0f} kWh bei {use:,.0f} % Auslastung, {cost}",
    "Emissions per year": "Emissionen pro Jahr",
    "{kg:,.0f} kg CO2e": "{kg:,.0f} kg CO2e",
    "no grid factor given": "kein Emissionsfaktor des Netzes angegeben",
    "Colocation per year": "Colocation pro Jahr",
    "Running cost per year": "Laufende Kosten pro Jahr",
    "Total cost of ownership": "Gesamtkosten (TCO)",
    "{cost} over {years:g} years": "{cost} über {years:g} Jahre",
    "Cost per million output tokens": "Kosten je Million Ausgabe-Tokens",
    "Infrastructure notes": "Hinweise zur Infrastruktur",
    # --- 8 validation plan
    "Validation plan": "Validierungsplan",
    "A sizing is an estimate until it is measured. Before relying on it, load one replica on "
    "site with the scenario's requests ({prompt:,} prompt tokens, {output:,} output tokens) "
    "at the levels below. Send the requests to one replica directly, not through the load "
    "balancer, so that the figures compare with the per-replica figures of this report.":
        "Eine Dimensionierung ist eine Schätzung, bis sie gemessen ist. Bevor Sie sich darauf "
        "verlassen, belasten Sie vor Ort ein Replikat mit den Anfragen des Szenarios "
        "({prompt:,} Prompt-Tokens, {output:,} Ausgabe-Tokens) in den Stufen unten. Senden "
        "Sie die Anfragen direkt an ein Replikat, nicht über den Load Balancer, damit die "
        "Zahlen mit den Werten je Replikat in diesem Bericht vergleichbar sind.",
    "Set the model name and the replica's address first:":
        "Setzen Sie zuerst den Modellnamen und die Adresse des Replikats:",
    "With vLLM's benchmark (vllm bench serve)": "Mit dem Benchmark von vLLM (vllm bench serve)",
    "With NVIDIA AIPerf": "Mit NVIDIA AIPerf",
    "{level}: {users} concurrent users": "{level}: {users} gleichzeitige Nutzer",
    "Expected figures (one replica, with the band)":
        "Erwartete Werte (ein Replikat, mit Bandbreite)",
    "Level": "Stufe",
    "Users": "Nutzer",
    "Output tokens/s": "Ausgabe-Tokens/s",
    "The sizing holds when the measured medians lie inside the band at every level and no "
    "request fails. Compare TTFT with the median and 90th percentile TTFT, tokens/s per user "
    "with 1 / median inter-token latency (TPOT), and output tokens/s with the output "
    "throughput. A measurement below the band: calibrate AI Sizer with it and size again "
    "before adding hardware.":
        "Die Dimensionierung trägt, wenn die gemessenen Mediane in jeder Stufe innerhalb der "
        "Bandbreite liegen und keine Anfrage fehlschlägt. Vergleichen Sie TTFT mit dem Median "
        "und dem 90. Perzentil der TTFT, Tokens/s je Nutzer mit 1 / Median der Latenz "
        "zwischen Tokens (TPOT) und Ausgabe-Tokens/s mit dem Ausgabedurchsatz. Liegt eine "
        "Messung unter der Bandbreite: kalibrieren Sie AI Sizer damit und dimensionieren Sie "
        "neu, bevor Sie Hardware ergänzen.",
    # --- 9 recommended stack
    "Recommended stack": "Empfohlener Software-Stack",
    "Orchestration:": "Orchestrierung:",
    "Kubernetes with the NVIDIA GPU Operator (driver, container toolkit, device plugin, DCGM "
    "exporter) on {nodes} GPU servers; one replica per pod with {gpus} GPU(s); replicas "
    "spread over servers (anti-affinity) so that losing one leaves the load served; "
    "{autoscaling}.":
        "Kubernetes mit dem NVIDIA GPU Operator (Treiber, Container Toolkit, Device Plugin, "
        "DCGM Exporter) auf {nodes} GPU-Servern; ein Replikat je Pod mit {gpus} GPU(s); "
        "Replikate über die Server verteilt (Anti-Affinität), damit der Ausfall eines Servers "
        "die Last nicht gefährdet; {autoscaling}.",
    "autoscaling between {low} and {high} replicas":
        "Autoskalierung zwischen {low} und {high} Replikaten",
    "Serving:": "Serving:",
    "{engine} with tensor parallel {t} and pipeline parallel {p}, {formats}, maximum context "
    "{context:,} tokens, memory fraction {fraction}, batch limit {batch:,}, {tokens:,} tokens "
    "per step.":
        "{engine} mit Tensor-Parallelität {t} und Pipeline-Parallelität {p}, {formats}, "
        "maximaler Kontext {context:,} Tokens, Speicheranteil {fraction}, Batch-Grenze "
        "{batch:,}, {tokens:,} Tokens je Schritt.",
    "Storage:": "Speicher:",
    "block storage near the GPU servers for the model weights ({weights} per replica; "
    "storage tier '{tier}', cold start about {cold}); shared file or object storage for the "
    "model registry, logs and results.":
        "Blockspeicher nahe den GPU-Servern für die Modellgewichte ({weights} je Replikat; "
        "Speicherklasse '{tier}', Kaltstart etwa {cold}); gemeinsamer Datei- oder "
        "Objektspeicher für Modell-Registry, Logs und Ergebnisse.",
    "Network:": "Netzwerk:",
    "an isolated network: a private endpoint behind a load balancer and no outbound "
    "traffic; model weights, container images and updates come through an internal "
    "registry.":
        "ein isoliertes Netz: ein privater Endpunkt hinter einem Load Balancer und kein "
        "ausgehender Verkehr; Modellgewichte, Container-Images und Updates kommen über eine "
        "interne Registry.",
    "a private network segment with a load balancer in front of the replicas; outbound "
    "traffic only as the site's policy allows.":
        "ein privates Netzsegment mit einem Load Balancer vor den Replikaten; ausgehender "
        "Verkehr nur, soweit die Richtlinien des Standorts es erlauben.",
    "Monitoring:": "Überwachung:",
    "Prometheus and Grafana: GPU utilisation and VRAM use (DCGM exporter), TTFT and tokens/s "
    "per user (the serving engine's metrics), request and error rates; alert on {alerts} and "
    "on any errors.":
        "Prometheus und Grafana: GPU-Auslastung und VRAM-Belegung (DCGM Exporter), TTFT und "
        "Tokens/s je Nutzer (Metriken der Serving-Engine), Anfrage- und Fehlerraten; Alarm "
        "bei {alerts} und bei jedem Fehler.",
    "TTFT above {ttft}": "TTFT über {ttft}",
    "tokens/s per user below {speed:,.1f}": "Tokens/s je Nutzer unter {speed:,.1f}",
    # --- 10 assumptions and formulas
    "Assumptions and formulas": "Annahmen und Formeln",
    "Every default and efficiency factor the sizing used, with its source (numbers in "
    "brackets refer to the list below).":
        "Jeder Standardwert und Effizienzfaktor, den die Dimensionierung verwendet hat, mit "
        "seiner Quelle (die Zahlen in Klammern verweisen auf die Liste darunter).",
    "Assumption": "Annahme",
    "Value": "Wert",
    "Unit": "Einheit",
    "Set by user": "Vom Nutzer",
    "Source": "Quelle",
    "Sources": "Quellen",
    "Key formulas": "Wichtige Formeln",
    "Computed quantity": "Berechnete Größe",
    "Formula": "Formel",
    "docs/METHOD.md": "docs/METHOD.md",
    "Step 2": "Schritt 2",
    "Step 4": "Schritt 4",
    "Step 5": "Schritt 5",
    "KV cache per token and layer": "KV-Cache je Token und Schicht",
    "Capacity of a GPU": "Kapazität einer GPU",
    "Sequences that fit": "Sequenzen, die passen",
    "Decode step (ITL)": "Decode-Schritt (ITL)",
    "Weight and compute time": "Zeit für Gewichte und Rechnen",
    "Attention time": "Zeit für Attention",
    "Communication": "Kommunikation",
    "Prefill": "Prefill",
    "Load (Little's law)": "Last (Littles Gesetz)",
    "Naive figure": "Naive Zahl",
    "Replicas for load": "Replikate für die Last",
    "Facility power and heat": "Leistung und Wärme des Rechenzentrums",
    "Symbols: {symbols}": "Symbole: {symbols}",
    # --- 11 calibration accuracy
    "Calibration accuracy": "Genauigkeit der Kalibrierung",
    "The method predicts published measurements (TensorRT-LLM and llama.cpp on data-centre "
    "and desktop GPUs) with the errors below: the absolute relative error of each "
    "prediction, its median and 90th percentile per metric, and the worst ratio between "
    "prediction and measurement.":
        "Die Methode sagt veröffentlichte Messungen (TensorRT-LLM und llama.cpp auf "
        "Rechenzentrums- und Desktop-GPUs) mit den Fehlern unten voraus: der absolute "
        "relative Fehler jeder Vorhersage, sein Median und 90. Perzentil je Messgröße und das "
        "schlechteste Verhältnis zwischen Vorhersage und Messung.",
    "Computed for this report with the engine's own calibration code from {source}.":
        "Für diesen Bericht mit dem Kalibriercode der Engine berechnet aus {source}.",
    "As recorded in {source}.": "Wie festgehalten in {source}.",
    "Metric": "Messgröße",
    "Cases": "Fälle",
    "Median error": "Medianer Fehler",
    "90th percentile": "90. Perzentil",
    "Worst factor": "Schlechtester Faktor",
    "saturation throughput": "Durchsatz bei Sättigung",
    "single-user decode": "Decode eines einzelnen Nutzers",
    "The band this report gives (x{low} to x{high}) is the spread of these residuals for the "
    "serving engine's profile; profiles or GPU families without measurements get a wider "
    "band, and the warnings say so.":
        "Die Bandbreite in diesem Bericht (x{low} bis x{high}) ist die Streuung dieser Reste "
        "für das Profil der Serving-Engine; Profile oder GPU-Familien ohne Messungen erhalten "
        "eine breitere Bandbreite, und die Warnungen sagen es.",
    # --- 12 glossary
    "Glossary": "Glossar",
    "ITL / TPOT": "ITL / TPOT",
    "Prefill / decode": "Prefill / Decode",
    "KV cache": "KV-Cache",
    "Replica": "Replikat",
    "Tensor parallel (t)": "Tensor-Parallelität (t)",
    "Pipeline parallel (p)": "Pipeline-Parallelität (p)",
    "Saturation": "Sättigung",
    "SLO capacity": "SLO-Kapazität",
    "N+1 / 2N": "N+1 / 2N",
    "PUE": "PUE",
    "BTU/h": "BTU/h",
    "GB / GiB": "GB / GiB",
    "PAdES B-B": "PAdES B-B",
    "SHA-256 fingerprint": "SHA-256-Fingerabdruck",
    "Time to first token: from sending a request until the first token arrives; mostly the "
    "prefill of the prompt, plus queueing.":
        "Zeit bis zum ersten Token: vom Senden einer Anfrage bis zum ersten Token; vor allem "
        "das Prefill des Prompts, dazu Wartezeit.",
    "Inter-token latency (time per output token): the time of one decode step; tokens/s per "
    "user = 1 / ITL.":
        "Latenz zwischen Tokens (Zeit je Ausgabe-Token): die Dauer eines Decode-Schritts; "
        "Tokens/s je Nutzer = 1 / ITL.",
    "The generation speed one user sees while the others are served.":
        "Die Generierungsgeschwindigkeit, die ein Nutzer sieht, während die anderen bedient "
        "werden.",
    "All tokens a replica generates per second, for all users together.":
        "Alle Tokens, die ein Replikat pro Sekunde erzeugt, für alle Nutzer zusammen.",
    "Prefill reads the whole prompt at once (compute-bound); decode generates one token per "
    "step for every user (memory-bound).":
        "Prefill liest den ganzen Prompt auf einmal (rechengebunden); Decode erzeugt je "
        "Schritt ein Token für jeden Nutzer (speichergebunden).",
    "The keys and values of every token in context, kept in GPU memory for each user; it "
    "grows with users and context length.":
        "Die Schlüssel und Werte jedes Tokens im Kontext, für jeden Nutzer im GPU-Speicher "
        "gehalten; er wächst mit Nutzern und Kontextlänge.",
    "One complete copy of the model on its GPUs, serving requests on its own.":
        "Eine vollständige Kopie des Modells auf ihren GPUs, die Anfragen eigenständig "
        "bedient.",
    "Each layer split across t GPUs, which exchange results at every layer (needs a fast "
    "link such as NVLink).":
        "Jede Schicht auf t GPUs aufgeteilt, die in jeder Schicht Ergebnisse austauschen "
        "(braucht eine schnelle Verbindung wie NVLink).",
    "The layers split into p stages on different GPUs.":
        "Die Schichten in p Stufen auf verschiedene GPUs aufgeteilt.",
    "The most users a replica serves at once, limited by KV memory, the engine's batch limit "
    "and its token budget.":
        "Die meisten Nutzer, die ein Replikat gleichzeitig bedient, begrenzt durch den "
        "KV-Speicher, die Batch-Grenze der Engine und ihr Token-Budget.",
    "The most users a replica serves while meeting both targets.":
        "Die meisten Nutzer, die ein Replikat bedient und dabei beide Ziele erreicht.",
    "The range the expected figures may fall in, from the calibration errors.":
        "Der Bereich, in dem die erwarteten Werte liegen können, aus den Kalibrierfehlern.",
    "The vendor rule of thumb 'bandwidth / model size', shown for comparison.":
        "Die Faustregel der Hersteller 'Bandbreite / Modellgröße', zum Vergleich gezeigt.",
    "Redundancy: the load still served with one server lost (N+1), or a full second set "
    "(2N).":
        "Redundanz: die Last wird auch bei Ausfall eines Servers bedient (N+1), oder ein "
        "vollständiger zweiter Satz (2N).",
    "Power usage effectiveness: facility power / IT power.":
        "Power Usage Effectiveness: Leistung des Rechenzentrums / IT-Leistung.",
    "British thermal units per hour, the unit of heat to remove (1 kW = 3,412 BTU/h).":
        "British Thermal Units pro Stunde, die Einheit der abzuführenden Wärme "
        "(1 kW = 3.412 BTU/h).",
    "10^9 bytes / 2^30 bytes (1 GiB = 1.074 GB).": "10^9 Byte / 2^30 Byte (1 GiB = 1,074 GB).",
    "The basic level of the European standard for PDF signatures; it needs no time-stamp "
    "server and can be checked offline.":
        "Die Basisstufe des europäischen Standards für PDF-Signaturen; sie braucht keinen "
        "Zeitstempel-Server und lässt sich offline prüfen.",
    "A checksum of the signer's certificate, to compare by phone or letter with the one the "
    "signer gives you.":
        "Eine Prüfsumme des Zertifikats des Unterzeichners, zum Abgleich per Telefon oder "
        "Brief mit dem Wert, den der Unterzeichner Ihnen nennt.",
    # --- 13 signature
    "This copy of the report is not signed. The attached scenario.json and result.json "
    "reproduce it with AI Sizer ('aisizer report').":
        "Dieses Exemplar des Berichts ist nicht signiert. Die beigefügten scenario.json und "
        "result.json erzeugen es mit AI Sizer erneut ('aisizer report').",
    "This report carries a PAdES baseline B-B signature over the whole file, the attached "
    "scenario.json and result.json included. Check it with 'aisizer verify REPORT.pdf' (or "
    "Help > Verify report in AI Sizer), and compare the certificate's fingerprint below with "
    "the one the signer gives you by phone or letter.":
        "Dieser Bericht trägt eine PAdES-Signatur (Baseline B-B) über die ganze Datei, "
        "einschließlich der beigefügten scenario.json und result.json. Prüfen Sie sie mit "
        "'aisizer verify BERICHT.pdf' (oder Hilfe > Bericht prüfen in AI Sizer) und "
        "vergleichen Sie den Fingerabdruck des Zertifikats unten mit dem Wert, den der "
        "Unterzeichner Ihnen per Telefon oder Brief nennt.",
    "Digitally signed (PAdES baseline B-B)": "Digital signiert (PAdES Baseline B-B)",
    "Signer": "Unterzeichner",
    "Organisation": "Organisation",
    "Email": "E-Mail",
    "Signing time": "Zeitpunkt der Signatur",
    "Certificate issuer": "Aussteller des Zertifikats",
    # --- training, retrieval (RAG) and CPU inference (sections and the window's page Training and workloads)
    'Activations':
        'Aktivierungen',
    "At the scenario's load ({users:,.0f} users)":
        'Bei der Last des Szenarios ({users:,.0f} Nutzer)',
    'Batch':
        'Batch',
    'CPU':
        'CPU',
    'CPU inference':
        'Inferenz auf CPUs',
    'Checkpoint':
        'Checkpoint',
    'Checkpoints and storage':
        'Checkpoints und Speicher',
    'Corpus':
        'Korpus',
    'Embedding':
        'Embedding-Modell',
    'Figure: memory of the fullest GPU during training.':
        'Abbildung: Speicher der vollsten GPU während des Trainings.',
    'Figure: time to train against the number of GPUs.':
        'Abbildung: Trainingsdauer über der Zahl der GPUs.',
    'GPUs (log scale)':
        'GPUs (logarithmische Skala)',
    'Gradients':
        'Gradienten',
    'How retrieval was sized':
        'Wie das Retrieval dimensioniert wurde',
    'How the comparison was made':
        'Wie verglichen wurde',
    'How the training was sized':
        'Wie das Training dimensioniert wurde',
    'Indexing the corpus, the vector index and the latency retrieval adds to each answer.':
        'Die Indizierung des Korpus, der Vektorindex und die Latenz, die das Retrieval jeder Antwort hinzufügt.',
    'Interval (Young/Daly)':
        'Intervall (Young/Daly)',
    'Method':
        'Methode',
    'Optimizer states':
        'Optimierer-Zustände',
    'Output tokens/s in all':
        'Ausgabe-Tokens/s insgesamt',
    'Power and price':
        'Leistung und Preis',
    'Re-indexing':
        'Neuindexierung',
    'Retrieval':
        'Retrieval',
    'Retrieval (RAG)':
        'Retrieval (RAG)',
    'Runtime and buffers':
        'Laufzeit und Puffer',
    'Step time':
        'Schrittdauer',
    'The training job: the memory each GPU must hold, the time one optimizer step and the whole run take, and the checkpoints.':
        'Der Trainingslauf: der Speicher, den jede GPU halten muss, die Dauer eines Optimizer-Schritts und des ganzen Laufs, und die Checkpoints.',
    'Time to train':
        'Trainingsdauer',
    'Tokens to train':
        'Zu trainierende Tokens',
    'Training':
        'Training',
    'Usable':
        'Nutzbar',
    'Users within the targets':
        'Nutzer innerhalb der Ziele',
    'Vector index':
        'Vektorindex',
    'activations':
        'Aktivierungen',
    'chosen: {gpus:,} GPUs':
        'gewählt: {gpus:,} GPUs',
    "data parallel {d}, tensor parallel {t}, pipeline parallel {p}, ZeRO stage {z}, activation recompute '{recompute}'":
        "Datenparallelität {d}, Tensor-Parallelität {t}, Pipeline-Parallelität {p}, ZeRO-Stufe {z}, Neuberechnung der Aktivierungen '{recompute}'",
    'every {minutes:,.0f} min with a cluster MTBF of {mtbf}; {share:,.1f} % of the time lost':
        'alle {minutes:,.0f} min bei einer MTBF des Clusters von {mtbf}; {share:,.1f} % der Zeit gehen verloren',
    'gradients':
        'Gradienten',
    'hidden behind compute':
        'hinter der Rechenzeit verborgen',
    'memory of one GPU during training [GB]':
        'Speicher einer GPU im Training [GB]',
    'micro-batch {micro} x {length:,} tokens, {steps} accumulation step, global batch {sequences:,} sequences ({tokens:,.0f} tokens)':
        'Micro-Batch {micro} x {length:,} Tokens, {steps} Akkumulationsschritt, globaler Batch {sequences:,} Sequenzen ({tokens:,.0f} Tokens)',
    'micro-batch {micro} x {length:,} tokens, {steps} accumulation steps, global batch {sequences:,} sequences ({tokens:,.0f} tokens)':
        'Micro-Batch {micro} x {length:,} Tokens, {steps} Akkumulationsschritte, globaler Batch {sequences:,} Sequenzen ({tokens:,.0f} Tokens)',
    'not hidden':
        'nicht verborgen',
    'optimizer states':
        'Optimizer-Zustände',
    'runtime':
        'Laufzeit',
    'the smallest configuration that fits, found by the search':
        'die kleinste passende Konfiguration, von der Suche gefunden',
    'time to train [days]':
        'Trainingsdauer [Tage]',
    'wall clock, best layout at each count':
        'Gesamtdauer, beste Aufteilung je Anzahl',
    'within {days:,.0f} days: {met}':
        'innerhalb von {days:,.0f} Tagen: {met}',
    '{compute} of compute (MFU {mfu:.0%}), {wall} with checkpoints and failures; {hours:,.0f} GPU-hours':
        '{compute} Rechenzeit (MFU {mfu:.0%}), {wall} mit Checkpoints und Ausfällen; {hours:,.0f} GPU-Stunden',
    '{days:,.1f} days':
        '{days:,.1f} Tage',
    '{docs:,} documents, {tokens:,.0f} tokens, {chunks:,.0f} chunks':
        '{docs:,} Dokumente, {tokens:,.0f} Tokens, {chunks:,.0f} Chunks',
    '{hours:,.1f} h':
        '{hours:,.1f} h',
    '{index}: {memory} in memory ({vectors} of raw vectors), {disk} on disk with the chunk text':
        '{index}: {memory} im Arbeitsspeicher ({vectors} reine Vektoren), {disk} auf der Platte mit dem Text der Chunks',
    '{latency} per query; time to first token {with_r} instead of {without} ({tokens:,} prompt tokens added)':
        '{latency} je Anfrage; Zeit bis zum ersten Token {with_r} statt {without} ({tokens:,} zusätzliche Prompt-Tokens)',
    '{method}, optimizer {optimizer}':
        '{method}, Optimizer {optimizer}',
    '{n} x {cpu}, {bandwidth:,.0f} GB/s memory bandwidth ({share:.0%} reached)':
        '{n} x {cpu}, {bandwidth:,.0f} GB/s Speicherbandbreite ({share:.0%} erreicht)',
    '{n} x {gpu} on {nodes} node(s); {how}':
        '{n} x {gpu} auf {nodes} Server(n); {how}',
    '{params:,.0f} million parameters, {dim:,} dimensions, on {n} x {gpu}: {tokens:,.0f} tokens embedded in {time}':
        '{params:,.0f} Millionen Parameter, {dim:,} Dimensionen, auf {n} x {gpu}: {tokens:,.0f} Tokens eingebettet in {time}',
    '{share:,.1f} % of the corpus per day: {hours:,.2f} GPU-hours per day':
        '{share:,.1f} % des Korpus pro Tag: {hours:,.2f} GPU-Stunden pro Tag',
    '{size}, saved in {save}':
        '{size}, gespeichert in {save}',
    '{speed:,.1f} tokens/s, first token after {ttft}':
        '{speed:,.1f} Tokens/s, erstes Token nach {ttft}',
    '{step}: compute {compute}, communication {comm} ({hidden}), pipeline bubble {bubble:,.1f} %':
        '{step}: Rechnen {compute}, Kommunikation {comm} ({hidden}), Pipeline-Blase {bubble:,.1f} %',
    '{tokens:,.0f} tokens in {steps:,.0f} steps':
        '{tokens:,.0f} Tokens in {steps:,.0f} Schritten',
    '{total:,.2f} billion, {trained:,.3f} billion trained':
        '{total:,.2f} Milliarden, davon {trained:,.3f} Milliarden trainiert',
    '{total}: {n} checkpoints ({checkpoints}) and the dataset ({dataset})':
        '{total}: {n} Checkpoints ({checkpoints}) und der Datensatz ({dataset})',
    # --- compared options
    "Compared options": "Verglichene Optionen",
    "This sizing": "Diese Dimensionierung",
    "Key figure": "Kennzahl",
    "The options pinned for comparison, each sized with the same method and catalogs; figures are per replica unless stated.": "Die zum Vergleich festgehaltenen Optionen, jede mit derselben Methode und denselben Katalogen dimensioniert; Angaben je Replikat, sofern nicht anders angegeben.",
    "GPU x count per replica": "GPU x Anzahl je Replikat",
    "Weights / KV cache": "Gewichte / KV-Cache",
    "Fits in memory": "Passt in den Speicher",
    "VRAM per GPU (used / usable)": "VRAM je GPU (belegt / nutzbar)",
    "Users per replica within the targets": "Nutzer je Replikat innerhalb der Ziele",
    "Tokens/s per user at load": "Tokens/s je Nutzer unter Last",
    "Time to first token at load": "Zeit bis zum ersten Token unter Last",
    "Saturation throughput (tokens/s)": "Durchsatz bei Sättigung (Tokens/s)",
    "Replicas / GPUs": "Replikate / GPUs",
    "Indicative capital cost": "Indikative Investitionskosten",
    "IT power": "IT-Leistung",
    # --- rack failure (section 6, redundancy and scale)
    "When a node fails:": "Bei Ausfall eines Knotens:",
    "When a rack fails:": "Bei Ausfall eines Racks:",
    "Replicas after a failure": "Replikate nach einem Ausfall",
    "{racks} with servers, at most {nodes} server(s) in one":
        "{racks} mit Servern, höchstens {nodes} Server in einem",
    # --- singular and plural: the form for a count of one (app.i18n.plural, app/report/sections.py)
    "{nodes} x {server}, {gpus} GPU in total": "{nodes} x {server}, {gpus} GPU insgesamt",
    "Expected at {users:,.0f} user": "Erwartet bei {users:,.0f} Nutzer",
    "{users:,.0f} user: {speed:,.1f} tokens/s, first token after {ttft}, {total:,.0f} output "
    "tokens/s in all":
        "{users:,.0f} Nutzer: {speed:,.1f} Tokens/s, erstes Token nach {ttft}, {total:,.0f} "
        "Ausgabe-Tokens/s insgesamt",
    "{total:,.0f} output tokens/s with {users:,.0f} user":
        "{total:,.0f} Ausgabe-Tokens/s mit {users:,.0f} Nutzer",
    "{gpus} GPU in {nodes} server, {racks} rack(s)": "{gpus} GPU in {nodes} Server, {racks} Rack(s)",
    "{gpus} GPUs in {nodes} server, {racks} rack(s)":
        "{gpus} GPUs in {nodes} Server, {racks} Rack(s)",
    "chosen by the tool among {gpus}, one GPU per replica, ranked by {rank}":
        "vom Werkzeug gewählt unter {gpus}, eine GPU je Replikat, Rangfolge nach {rank}",
    "KV cache for {users:,} sequence": "KV-Cache für {users:,} Sequenz",
    "{replicas} ({load} carries the load)": "{replicas} ({load} trägt die Last)",
    "{nodes} x {server} ({per_node} GPU each, {replicas} replica(s) per server, {span} "
    "server(s) per replica)":
        "{nodes} x {server} (je {per_node} GPU, {replicas} Replikat(e) je Server, {span} "
        "Server je Replikat)",
    "At the scenario's load ({users:,.0f} user)":
        "Bei der Last des Szenarios ({users:,.0f} Nutzer)",
    "{level}: {users} concurrent user": "{level}: {users} gleichzeitiger Nutzer",
    "Kubernetes with the NVIDIA GPU Operator (driver, container toolkit, device plugin, DCGM "
    "exporter) on one GPU server; one replica per pod with {gpus} GPU(s); {autoscaling}.":
        "Kubernetes mit dem NVIDIA GPU Operator (Treiber, Container Toolkit, Device Plugin, "
        "DCGM Exporter) auf einem GPU-Server; ein Replikat je Pod mit {gpus} GPU(s); "
        "{autoscaling}.",
    "{n} replica, without autoscaling": "{n} Replikat, ohne Autoskalierung",
    "{n} replicas, without autoscaling": "{n} Replikate, ohne Autoskalierung",
    # --- plurals in the window and charts (the report's charts)
    "scenario: {users:,.0f} user": "Szenario: {users:,.0f} Nutzer",
    "chosen: {gpus:,} GPU": "gewählt: {gpus:,} GPU",
    "{nodes} x {server}, {gpus} GPU each; scale-up: {scale_up}":
        "{nodes} x {server}, je {gpus} GPU; Scale-up: {scale_up}",

    # --- validation plan and predicted against measured (issue 16)
    "'aisizer test-plan' (or File > Export test plan) writes the whole plan: the engine's "
    "launch script, a script that runs every level with vLLM's bench serve, SGLang's "
    "bench_serving, NVIDIA AIPerf or GenAI-Perf, or guidellm and saves each result to a file, "
    "and a README with the figures below. The imported results come back in the Validation "
    "step.":
        "'aisizer test-plan' (oder Datei > Testplan exportieren) schreibt den ganzen Plan: das "
        "Startskript der Engine, ein Skript, das jede Stufe mit vLLMs bench serve, SGLangs "
        "bench_serving, NVIDIA AIPerf oder GenAI-Perf oder guidellm fährt und jedes Ergebnis in "
        "eine Datei schreibt, und eine README mit den Werten unten. Die importierten Ergebnisse "
        "kommen im Schritt Validierung zurück.",
    "A sizing is an estimate until it is measured. Before relying on it, load one replica on "
    "site with the scenario's requests ({prompt:,} prompt tokens, {output:,} output tokens): a "
    "concurrency sweep from one user through the scenario's load to beyond saturation, then "
    "the same load as requests arriving at a rate. Send the requests to one replica directly, "
    "not through the load balancer, so that the figures compare with the per-replica figures "
    "of this report.":
        "Eine Dimensionierung ist eine Schätzung, bis sie gemessen ist. Bevor Sie sich darauf "
        "verlassen, belasten Sie ein Replikat am Standort mit den Anfragen des Szenarios "
        "({prompt:,} Prompt-Tokens, {output:,} Ausgabe-Tokens): eine Staffel der Parallelität "
        "von einem Nutzer über die Last des Szenarios bis über die Sättigung, dann dieselbe Last "
        "als Anfragen, die mit einer Rate eintreffen. Senden Sie die Anfragen direkt an ein "
        "Replikat, nicht über den Load Balancer, damit die Werte mit den Werten je Replikat in "
        "diesem Bericht vergleichbar sind.",
    "Levels and the figures to reach (one replica)": "Stufen und die zu erreichenden Werte (ein Replikat)",
    "No load test applies to this result.": "Für dieses Ergebnis gilt kein Lasttest.",
    "TTFT at most {ttft}, {speed} tokens/s per user or more":
        "TTFT höchstens {ttft}, {speed} Tokens/s je Nutzer oder mehr",
    "Up to the scenario's load a level must meet the targets where the sizing expects them "
    "met; every level should lie inside the range (x{low} to x{high} of the expected figure; "
    "times inversely). A level outside the range: import the results, let AI Sizer fit the "
    "site's factors, and size again before adding hardware.":
        "Bis zur Last des Szenarios muss eine Stufe die Ziele erreichen, wo die "
        "Dimensionierung sie erreicht erwartet; jede Stufe sollte im Bereich liegen (x{low} bis "
        "x{high} des erwarteten Werts; Zeiten umgekehrt). Eine Stufe außerhalb des Bereichs: "
        "die Ergebnisse importieren, AI Sizer die Faktoren des Standorts anpassen lassen und neu "
        "dimensionieren, bevor Hardware hinzukommt.",
    "The commands at the scenario's load": "Die Befehle bei der Last des Szenarios",
    "Predicted against measured": "Vorhersage und Messung",
    "{points:,} operating points measured on site ({files:,} result files) beside the "
    "sizing's prediction for the same configuration, load and request lengths. Error = "
    "measured / predicted - 1; the range is the band of section {performance}.":
        "{points:,} am Standort gemessene Betriebspunkte ({files:,} Ergebnisdateien) neben der "
        "Vorhersage der Dimensionierung für dieselbe Konfiguration, Last und Anfragelängen. "
        "Abweichung = gemessen / vorhergesagt - 1; der Bereich ist das Band aus Abschnitt "
        "{performance}.",
    "Each point beside the prediction": "Jeder Punkt neben der Vorhersage",
    "The targets at the scenario's load": "Die Ziele bei der Last des Szenarios",
    "What the measurements mean for the plan": "Was die Messungen für den Plan bedeuten",
    "The Step 4 charts with the measured points": "Die Diagramme aus Schritt 4 mit den Messpunkten",
    "Figure: tokens/s per user, predicted with its band, and measured.":
        "Abbildung: Tokens/s je Nutzer, vorhergesagt mit seinem Band, und gemessen.",
    "Figure: output tokens/s of one replica, predicted and measured.":
        "Abbildung: Ausgabe-Tokens/s eines Replikats, vorhergesagt und gemessen.",
    "Figure: time to first token of one user alone, predicted and measured.":
        "Abbildung: Zeit bis zum ersten Token eines einzelnen Nutzers, vorhergesagt und gemessen.",
    "The site's factors": "Die Faktoren des Standorts",
    "Fitted separately for decode and prefill to the measured figures: decode x{decode}, "
    "prefill x{prefill} on the {engine} profile's factors; median error {before} with the "
    "catalog's factors, {after} with the site's; the site profile's range is x{low} to x{high}.":
        "Getrennt für Decode und Prefill an die gemessenen Werte angepasst: Decode x{decode}, "
        "Prefill x{prefill} auf die Faktoren des Profils {engine}; mittlere Abweichung {before} "
        "mit den Faktoren des Katalogs, {after} mit denen des Standorts; der Bereich des "
        "Standortprofils ist x{low} bis x{high}.",
    "Saved as a site profile (Validation step, or 'aisizer measurements fit --save-profile'), "
    "these factors size every scenario on the same GPU and engine, marked site-calibrated.":
        "Als Standortprofil gespeichert (Schritt Validierung oder 'aisizer measurements fit "
        "--save-profile'), dimensionieren diese Faktoren jedes Szenario auf derselben GPU und "
        "Engine, markiert als am Standort kalibriert.",
    "This sizing uses the site profile '{profile}' (site-calibrated).":
        "Diese Dimensionierung verwendet das Standortprofil '{profile}' (am Standort kalibriert).",
    "Point": "Punkt",
    "Points": "Punkte",
    "Load": "Last",
    "Measured": "Gemessen",
    "Predicted": "Vorhergesagt",
    "Range": "Bereich",
    "Error": "Abweichung",
    "Residual": "Residuum",
    "Catalog factors": "Faktoren des Katalogs",
    "Site factors": "Faktoren des Standorts",
    "SHA-256": "SHA-256-Prüfsumme",
    "measured": "gemessen",
    "measured, one user": "gemessen, ein Nutzer",
    "one stream": "ein Strom",
    "Prompt processing alone": "Prompt-Verarbeitung allein",
}
