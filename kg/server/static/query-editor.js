// /editor: YASGUI's Yasqe (editor) and Yasr (results), configured to call nothing but this
// server: completion from our ontology (/editor/terms.json) instead of LOV, our prefixes
// instead of prefix.cc, and three result views of our own — a paged table with labels, a bar
// chart for counts, a network for CONSTRUCT. Text from the data is set with textContent only.
(function () {
  "use strict";
  var cfgEl = document.getElementById("editor-config");
  if (!cfgEl || typeof Yasgui === "undefined") return;
  var cfg = JSON.parse(cfgEl.textContent);
  var Yasqe = Yasgui.Yasqe, Yasr = Yasgui.Yasr;
  var SVG = "http://www.w3.org/2000/svg";
  var PAGE = 50;

  function el(tag, text, attrs) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }

  function svg(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // -- IRIs: where they link, how they are shown, their labels ------------------------------
  var names = Object.keys(cfg.prefixes).sort(function (a, b) {
    return cfg.prefixes[b].length - cfg.prefixes[a].length;
  });

  function curie(iri) {
    for (var i = 0; i < names.length; i++) {
      var ns = cfg.prefixes[names[i]], rest = iri.slice(ns.length);
      if (iri.indexOf(ns) === 0 && /^[\w.-]*$/.test(rest) && !/\.$/.test(rest)) return names[i] + ":" + rest;
    }
    return iri;
  }

  function href(iri) {
    if (iri.indexOf(cfg.base) === 0) {
      return cfg.local + iri.slice(cfg.base.length).split("/").map(encodeURIComponent).join("/");
    }
    return /^https?:\/\//.test(iri) ? iri : null;
  }

  var labels = {};
  function post(query) {
    return fetch(cfg.endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/sparql-query", "Accept": "application/sparql-results+json" },
      body: query,
    }).then(function (r) { return r.ok ? r.json() : { results: { bindings: [] } }; });
  }

  function fetchLabels(iris) {
    var todo = iris.filter(function (i) {
      return !(i in labels) && /^[^<>"{}|^`\\\s]+$/.test(i);
    });
    if (!todo.length) return Promise.resolve();
    todo.forEach(function (i) { labels[i] = null; });
    var q = "SELECT ?s (SAMPLE(?l) AS ?label) WHERE { VALUES ?s { " +
      todo.map(function (i) { return "<" + i + ">"; }).join(" ") +
      " } ?s <http://www.w3.org/2004/02/skos/core#prefLabel>|<http://www.w3.org/2000/01/rdf-schema#label> ?l" +
      " FILTER(LANG(?l) = \"lzh\") } GROUP BY ?s";
    return post(q).then(function (data) {
      data.results.bindings.forEach(function (b) { labels[b.s.value] = b.label.value; });
    }).catch(function () {});
  }

  function iriCell(iri) {
    var shown = labels[iri] || curie(iri), h = href(iri);
    var box = el("span");
    box.appendChild(h ? el("a", shown, { href: h }) : el("span", shown));
    if (labels[iri]) box.appendChild(el("span", curie(iri), { "class": "iri" }));
    return box;
  }

  function termCell(term) {
    var td = el("td");
    if (!term) return td;
    if (term.type === "uri") td.appendChild(iriCell(term.value));
    else if (term.type === "bnode") td.appendChild(el("span", "_:" + term.value));
    else {
      var lang = term["xml:lang"] || term.lang;
      td.appendChild(el("span", term.value, lang ? { lang: lang === "lzh" ? "zh" : lang } : {}));
      if (lang && lang !== "lzh") td.appendChild(el("span", lang, { "class": "lang" }));
    }
    return td;
  }

  function rows(yasr) {
    var r = yasr.results;
    return r && r.getBindings ? r.getBindings() || [] : [];
  }

  function vars(yasr) {
    var r = yasr.results;
    return r && r.getVariables ? r.getVariables() || [] : [];
  }

  function iriValues(bindings) {
    var out = [];
    bindings.forEach(function (b) {
      Object.keys(b).forEach(function (v) { if (b[v] && b[v].type === "uri") out.push(b[v].value); });
    });
    return out;
  }

  function csv(yasr) {
    var vs = vars(yasr);
    function q(s) { return /[",\n]/.test(s) ? "\"" + s.replace(/"/g, "\"\"") + "\"" : s; }
    var lines = [vs.join(",")];
    rows(yasr).forEach(function (b) {
      lines.push(vs.map(function (v) { return q(b[v] ? b[v].value : ""); }).join(","));
    });
    return lines.join("\n") + "\n";
  }

  // -- the table: paged, with labels ---------------------------------------------------------
  function KgTable(yasr) { this.yasr = yasr; this.priority = 20; this.label = "Table"; this.page = 0; }
  KgTable.prototype.canHandleResults = function () { return vars(this.yasr).length > 0; };
  KgTable.prototype.getIcon = function () { return el("span", "▦"); };
  KgTable.prototype.download = function () {
    var yasr = this.yasr;
    return { getData: function () { return csv(yasr); }, contentType: "text/csv", title: "Download as CSV", filename: "results.csv" };
  };
  KgTable.prototype.draw = function () {
    var self = this, all = rows(this.yasr), vs = vars(this.yasr);
    var pages = Math.max(1, Math.ceil(all.length / PAGE));
    if (this.page >= pages) this.page = 0;
    var shown = all.slice(this.page * PAGE, (this.page + 1) * PAGE);
    return fetchLabels(iriValues(shown)).then(function () {
      var out = self.yasr.resultsEl;
      out.textContent = "";
      var pager = el("div", null, { "class": "kg-pager" });
      var prev = el("button", "‹ previous", { type: "button" }), next = el("button", "next ›", { type: "button" });
      prev.disabled = self.page === 0; next.disabled = self.page >= pages - 1;
      prev.addEventListener("click", function () { self.page--; self.draw(); });
      next.addEventListener("click", function () { self.page++; self.draw(); });
      var from = all.length ? self.page * PAGE + 1 : 0;
      pager.appendChild(prev);
      pager.appendChild(el("span", "rows " + from + "–" + (self.page * PAGE + shown.length) + " of " + all.length, { "class": "kg-count" }));
      pager.appendChild(next);
      var t = el("table", null, { "class": "kg-table" }), head = el("tr"), body = el("tbody");
      vs.forEach(function (v) { head.appendChild(el("th", v)); });
      var thead = el("thead"); thead.appendChild(head); t.appendChild(thead);
      shown.forEach(function (b) {
        var tr = el("tr");
        vs.forEach(function (v) { tr.appendChild(termCell(b[v])); });
        body.appendChild(tr);
      });
      t.appendChild(body);
      out.appendChild(pager);
      out.appendChild(t);
    });
  };

  // -- a bar chart: one numeric column against a label column -------------------------------
  function numericVar(yasr) {
    var vs = vars(yasr), bs = rows(yasr);
    if (vs.length < 2 || !bs.length || bs.length > 300) return null;
    var nums = vs.filter(function (v) {
      return bs.every(function (b) { return b[v] && b[v].type !== "uri" && b[v].value !== "" && isFinite(Number(b[v].value)); });
    });
    return nums.length === 1 ? nums[0] : null;
  }

  function KgChart(yasr) { this.yasr = yasr; this.priority = 5; this.label = "Chart"; }
  KgChart.prototype.canHandleResults = function () { return numericVar(this.yasr) !== null; };
  KgChart.prototype.getIcon = function () { return el("span", "▮"); };
  KgChart.prototype.draw = function () {
    var self = this, num = numericVar(this.yasr), bs = rows(this.yasr);
    var key = vars(this.yasr).filter(function (v) { return v !== num; })[0];
    return fetchLabels(iriValues(bs)).then(function () {
      var max = Math.max.apply(null, bs.map(function (b) { return Number(b[num].value); })) || 1;
      var rowH = 22, left = 200, width = 760;
      var chart = svg("svg", { "class": "kg-chart", width: width, height: bs.length * rowH + 10, role: "img" });
      bs.forEach(function (b, i) {
        var t = b[key], name = !t ? "" : t.type === "uri" ? (labels[t.value] || curie(t.value)) : t.value;
        var n = Number(b[num].value), y = i * rowH + 4;
        chart.appendChild(svg("text", { x: left - 6, y: y + 14, "text-anchor": "end" }, name));
        chart.appendChild(svg("rect", { x: left, y: y, height: rowH - 6, width: Math.max(1, (width - left - 60) * n / max) }));
        chart.appendChild(svg("text", { x: left + (width - left - 60) * n / max + 4, y: y + 14 }, String(n)));
      });
      self.yasr.resultsEl.textContent = "";
      self.yasr.resultsEl.appendChild(chart);
    });
  };

  // -- a network for CONSTRUCT / DESCRIBE results (Yasr reads Turtle into s/p/o rows) --------
  function triples(yasr) {
    var vs = vars(yasr);
    if (vs.join() !== "subject,predicate,object") return null;
    var bs = rows(yasr);
    return bs.length && bs.length <= 400 ? bs : null;
  }

  function KgGraph(yasr) { this.yasr = yasr; this.priority = 30; this.label = "Network"; }
  KgGraph.prototype.canHandleResults = function () { return triples(this.yasr) !== null; };
  KgGraph.prototype.getIcon = function () { return el("span", "☍"); };
  KgGraph.prototype.draw = function () {
    var self = this, ts = triples(this.yasr), nodes = [], index = {};
    ts.forEach(function (t) {
      [t.subject, t.object].forEach(function (n) {
        if (n.type !== "literal" && !(n.value in index)) { index[n.value] = nodes.length; nodes.push(n.value); }
      });
    });
    return fetchLabels(nodes).then(function () {
      var size = 720, c = size / 2, r = size / 2 - 90;
      var pos = nodes.map(function (_, i) {
        var a = 2 * Math.PI * i / Math.max(1, nodes.length);
        return [c + r * Math.cos(a), c + r * Math.sin(a)];
      });
      var g = svg("svg", { "class": "kg-graph", width: size, height: size, role: "img" });
      ts.forEach(function (t) {
        if (!(t.object.value in index) || t.object.type === "literal") return;
        var a = pos[index[t.subject.value]], b = pos[index[t.object.value]];
        var line = svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1] });
        line.appendChild(svg("title", {}, curie(t.predicate.value)));
        g.appendChild(line);
      });
      nodes.forEach(function (n, i) {
        g.appendChild(svg("circle", { cx: pos[i][0], cy: pos[i][1], r: 5 }));
        g.appendChild(svg("text", { x: pos[i][0] + 7, y: pos[i][1] + 4 }, labels[n] || curie(n)));
      });
      self.yasr.resultsEl.textContent = "";
      self.yasr.resultsEl.appendChild(g);
    });
  };

  // -- the plan: acts in the results drawn where they happen (GET /plan/SECTION?step=N) -----
  var ACT = /\/a\d+$/;
  function actsIn(yasr) {
    var out = [];
    rows(yasr).forEach(function (b) {
      Object.keys(b).forEach(function (v) {
        var t = b[v];
        if (t && t.type === "uri" && ACT.test(t.value) && t.value.indexOf(cfg.base) === 0 && out.indexOf(t.value) < 0) out.push(t.value);
      });
    });
    return out.slice(0, 200);
  }

  function KgPlan(yasr) { this.yasr = yasr; this.priority = 8; this.label = "Plan"; }
  KgPlan.prototype.canHandleResults = function () { return actsIn(this.yasr).length > 0; };
  KgPlan.prototype.getIcon = function () { return el("span", "⌂"); };
  KgPlan.prototype.draw = function () {
    var self = this, acts = actsIn(this.yasr);
    var q = "SELECT ?act ?sec ?order WHERE { VALUES ?act { " +
      acts.map(function (a) { return "<" + a + ">"; }).join(" ") +
      " } ?act <https://w3id.org/lijing/ontology#inSection> ?sec ; <https://w3id.org/lijing/ontology#order> ?order }";
    return post(q).then(function (data) {
      var found = data.results.bindings;
      var out = self.yasr.resultsEl;
      out.textContent = "";
      if (!found.length) { out.appendChild(el("p", "These acts are not placed in a section.")); return; }
      return fetchLabels(acts).then(function () {
        var pick = el("select", null, { "class": "kg-plan-act", "aria-label": "act" });
        found.forEach(function (b, i) {
          pick.appendChild(el("option", (labels[b.act.value] || curie(b.act.value)), { value: String(i) }));
        });
        var img = el("img", null, { "class": "kg-plan", alt: "the act on the ground plan" });
        function show() {
          var b = found[Number(pick.value)];
          var path = b.sec.value.slice(cfg.base.length).split("/").map(encodeURIComponent).join("/");
          img.setAttribute("src", cfg.plan + path + "?step=" + encodeURIComponent(b.order.value));
        }
        pick.addEventListener("change", show);
        out.appendChild(pick);
        out.appendChild(img);
        show();
      });
    });
  };
  Yasr.registerPlugin("kgplan", KgPlan);

  delete Yasr.plugins.table;  // ours shows labels; theirs would be a second "Table"
  Yasr.registerPlugin("kgtable", KgTable);
  Yasr.registerPlugin("kgchart", KgChart);
  Yasr.registerPlugin("kggraph", KgGraph);

  // -- completion from this server only ------------------------------------------------------
  var prefixLines = Object.keys(cfg.prefixes).map(function (p) { return p + ": <" + cfg.prefixes[p] + ">"; });
  var vocab = null;
  function terms(kind) {
    if (!vocab) vocab = fetch(cfg.editor + "/terms.json").then(function (r) { return r.json(); });
    return vocab.then(function (v) { return v[kind].map(function (t) { return t.iri; }); });
  }
  Yasqe.forkAutocompleter("prefixes", { name: "kgPrefixes", persistenceId: null, get: function () { return prefixLines; } });
  Yasqe.forkAutocompleter("property", { name: "kgProperty", bulk: true, persistenceId: null, get: function () { return terms("property"); } });
  Yasqe.forkAutocompleter("class", { name: "kgClass", bulk: true, persistenceId: null, get: function () { return terms("class"); } });
  Yasqe.defaults.autocompleters = ["variables", "kgPrefixes", "kgProperty", "kgClass"];

  var yasqe = new Yasqe(document.getElementById("yasqe"), {
    value: cfg.query,
    persistenceId: null,
    createShareableLink: null,
    resizeable: true,
    requestConfig: {
      endpoint: cfg.endpoint,
      method: "POST",
      acceptHeaderSelect: "application/sparql-results+json",
      acceptHeaderGraph: "text/turtle",
    },
  });
  // Yasqe reads ?query= from the URL itself; the server's text (prefixes declared) wins
  if (yasqe.getValue() !== cfg.query) yasqe.setValue(cfg.query);
  var yasr = new Yasr(document.getElementById("yasr"), {
    persistenceId: null,
    prefixes: cfg.prefixes,
    defaultPlugin: "kgtable",
    pluginOrder: ["kgtable", "kgchart", "kggraph", "kgplan", "response", "error", "boolean"],
  });

  var state = document.getElementById("state"), share = document.getElementById("share");
  var csvLink = document.getElementById("csv"), jsonLink = document.getElementById("json");
  function links() {
    var q = encodeURIComponent(yasqe.getValue());
    share.href = cfg.editor + "?query=" + q;
    csvLink.href = cfg.endpoint + "?format=csv&query=" + q;
    jsonLink.href = cfg.endpoint + "?format=json&query=" + q;
  }
  links();
  yasqe.on("change", links);
  yasqe.on("query", function () { state.textContent = "Running…"; });
  yasqe.on("queryResponse", function (_y, response, duration) {
    yasr.setResponse(response, duration);
    var n = rows(yasr).length, failed = response && (response.status >= 400 || response instanceof Error);
    state.textContent = failed ? "The query failed." : n + " rows in " + Math.round(duration) + " ms";
    state.dataset.done = "1";
  });

  var select = document.getElementById("name");
  if (select) {
    select.addEventListener("change", function () {
      window.location.href = cfg.editor + (select.value ? "?name=" + encodeURIComponent(select.value) : "");
    });
  }
  if (cfg.run) yasqe.query();
})();
