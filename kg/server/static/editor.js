// The home page's query editor: a textarea, the example queries, fetch() to /sparql, and a
// results table built with DOM calls only (text from the data is never parsed as HTML).
(function () {
  "use strict";
  var box = document.getElementById("editor");
  if (!box) return;
  var endpoint = box.dataset.endpoint, base = box.dataset.base, local = box.dataset.local;
  var query = document.getElementById("query"), run = document.getElementById("run");
  var status = document.getElementById("status"), out = document.getElementById("results");
  var select = document.getElementById("example"), permalink = document.getElementById("permalink");
  var examples = JSON.parse(document.getElementById("examples").textContent);

  function el(tag, text, attrs) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }

  function href(iri) {
    if (iri.indexOf(base) === 0) return local + iri.slice(base.length).split("/").map(encodeURIComponent).join("/");
    if (/^https?:\/\//.test(iri)) return iri;
    return null;
  }

  function cell(term) {
    var td = el("td");
    if (!term) return td;
    if (term.type === "uri") {
      var h = href(term.value);
      td.appendChild(h ? el("a", term.value, { href: h }) : el("span", term.value));
    } else if (term.type === "bnode") {
      td.appendChild(el("span", "_:" + term.value, { "class": "bnode" }));
    } else {
      td.appendChild(el("span", term.value, term["xml:lang"] ? { lang: term["xml:lang"] } : {}));
      if (term["xml:lang"]) td.appendChild(el("span", " @" + term["xml:lang"], { "class": "tag" }));
    }
    return td;
  }

  function table(data) {
    var t = el("table"), head = el("tr"), body = el("tbody");
    data.head.vars.forEach(function (v) { head.appendChild(el("th", "?" + v)); });
    var thead = el("thead"); thead.appendChild(head); t.appendChild(thead);
    data.results.bindings.forEach(function (row) {
      var tr = el("tr");
      data.head.vars.forEach(function (v) { tr.appendChild(cell(row[v])); });
      body.appendChild(tr);
    });
    t.appendChild(body);
    return t;
  }

  // the share link opens this page with the query and runs it (a browser sent to
  // /sparql?query=… is redirected here too); an RDF client can use /sparql?query=… itself
  function setLink() {
    permalink.href = location.pathname + "?query=" + encodeURIComponent(query.value) + "#editor";
  }

  function execute() {
    var started = performance.now();
    status.className = ""; status.textContent = "Running…"; out.textContent = "";
    run.disabled = true;
    setLink();
    fetch(endpoint, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "Accept": "application/sparql-results+json, text/turtle;q=0.9"
      },
      body: "query=" + encodeURIComponent(query.value)
    }).then(function (r) {
      return r.text().then(function (text) { return { r: r, text: text }; });
    }).then(function (res) {
      var secs = ((performance.now() - started) / 1000).toFixed(2);
      if (!res.r.ok) {
        status.className = "err";
        status.textContent = res.r.status + " " + res.text.trim();
        return;
      }
      var type = res.r.headers.get("Content-Type") || "";
      var capped = res.r.headers.get("X-SPARQL-MaxRows");
      if (type.indexOf("json") >= 0) {
        var data = JSON.parse(res.text);
        if ("boolean" in data) {
          status.textContent = "ASK: " + data.boolean + " (" + secs + " s)";
          return;
        }
        status.textContent = data.results.bindings.length + " rows in " + secs + " s" +
          (capped ? " — cut at the server's limit of " + capped + " rows" : "");
        out.appendChild(table(data));
      } else {
        status.textContent = "Graph result in " + secs + " s" + (capped ? " — cut at " + capped + " triples" : "");
        out.appendChild(el("pre", res.text));
      }
    }).catch(function (e) {
      status.className = "err"; status.textContent = "Request failed: " + e;
    }).then(function () { run.disabled = false; });
  }

  select.addEventListener("change", function () {
    examples.forEach(function (q) { if (q.name === select.value) query.value = q.text; });
    setLink();
  });
  run.addEventListener("click", execute);
  query.addEventListener("keydown", function (e) {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); execute(); }
  });
  query.addEventListener("input", setLink);
  var shared = new URLSearchParams(location.search).get("query");
  if (shared) { query.value = shared; execute(); }
  setLink();
}());
