// search.js adds free-text search and facets to the papers page.
//
// Without it the page lists every entry in #paper-list; each entry element
// carries data-key="KEY". With it, a search form appears above the list and
// entries that do not match are hidden. The rules are those of the Go
// package site/search (Index.Match), which the browser tests use to know
// the right answer:
//   - free text: the query is split on white space, lower-cased; every term
//     must occur in the title, authors, key, venue, one-liner or notes;
//   - facets: OR within a field, AND across fields.
// Each checkbox shows how many entries it would leave given the query and
// the other fields' selections. The state lives in the query string
// (?q=…&credit_granularity=message), so a view can be bookmarked and is
// restored on reload. All text from the index is untrusted and is inserted
// with textContent only.
(function () {
  "use strict";
  var list = document.getElementById("paper-list");
  if (!list || !window.fetch || !window.URLSearchParams) {
    return;
  }
  var indexURL = list.getAttribute("data-search-index") || "search-index.json";

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    }
    if (text !== undefined) {
      e.textContent = text;
    }
    return e;
  }

  function terms(q) {
    return q.toLowerCase().split(/\s+/).filter(function (t) { return t !== ""; });
  }

  function haystack(e) {
    return [e.title, e.authors, e.key, e.venue, e.one_liner, e.notes].join("\n").toLowerCase();
  }

  function start(index) {
    var entries = index.entries;
    var hay = {};
    var byKey = {};
    entries.forEach(function (e) {
      hay[e.key] = haystack(e);
      byKey[e.key] = e;
    });
    var rows = Array.prototype.slice.call(list.querySelectorAll("[data-key]"));
    // Groups (e.g. one section per category) hide when none of their
    // entries is shown, so no empty heading is left behind.
    var groups = Array.prototype.slice.call(list.children).filter(function (g) {
      return !g.hasAttribute("data-key") && g.querySelector("[data-key]");
    });

    // The form: a search box, one fieldset of checkboxes per field, a
    // reset button and a live region with the result count.
    var form = el("form", { id: "paper-search", role: "search", "class": "paper-search" });
    form.addEventListener("submit", function (ev) { ev.preventDefault(); });
    var qid = "paper-search-q";
    form.appendChild(el("label", { "for": qid, "class": "search-label" }, "Search titles, authors, venues, notes"));
    var qbox = el("input", { id: qid, type: "search", name: "q", autocomplete: "off", spellcheck: "false" });
    form.appendChild(qbox);
    var facets = el("div", { "class": "facets" });
    var boxes = {}; // field -> [{input, count, value}]
    index.fields.forEach(function (f) {
      var fs = el("fieldset", { "class": "facet", "data-field": f.name });
      fs.appendChild(el("legend", null, f.label));
      boxes[f.name] = [];
      f.values.forEach(function (v, i) {
        var id = "facet-" + f.name + "-" + i;
        var wrap = el("div", { "class": "facet-value" });
        var input = el("input", { type: "checkbox", id: id, name: f.name, value: v.value });
        var label = el("label", { "for": id });
        label.appendChild(document.createTextNode(v.label + " "));
        var count = el("span", { "class": "facet-count" });
        label.appendChild(count);
        wrap.appendChild(input);
        wrap.appendChild(label);
        fs.appendChild(wrap);
        boxes[f.name].push({ input: input, count: count, value: v.value, wrap: wrap });
      });
      facets.appendChild(fs);
    });
    var filters = el("details", { "class": "facet-group" });
    filters.appendChild(el("summary", null, "Filter by tag"));
    filters.appendChild(facets);
    form.appendChild(filters);
    var reset = el("button", { type: "button", "class": "search-reset" }, "Clear search and filters");
    form.appendChild(reset);
    var status = el("p", { id: "search-status", role: "status", "aria-live": "polite", "class": "search-status" });
    form.appendChild(status);
    list.parentNode.insertBefore(form, list);

    function selection() {
      var sel = {};
      index.fields.forEach(function (f) {
        sel[f.name] = boxes[f.name].filter(function (b) { return b.input.checked; }).map(function (b) { return b.value; });
      });
      return sel;
    }

    function textMatch(key, ts) {
      var h = hay[key];
      for (var i = 0; i < ts.length; i++) {
        if (h.indexOf(ts[i]) < 0) {
          return false;
        }
      }
      return true;
    }

    // facetMatch checks every field with a selection but skip.
    function facetMatch(e, sel, skip) {
      for (var f in sel) {
        if (f !== skip && sel[f].length > 0 && sel[f].indexOf(e.tags[f]) < 0) {
          return false;
        }
      }
      return true;
    }

    function writeURL(q, sel) {
      var p = new URLSearchParams();
      if (q.trim() !== "") {
        p.append("q", q);
      }
      index.fields.forEach(function (f) {
        sel[f.name].forEach(function (v) { p.append(f.name, v); });
      });
      var s = p.toString();
      var url = window.location.pathname + (s ? "?" + s : "") + window.location.hash;
      window.history.replaceState(null, "", url);
    }

    function update(writeState) {
      var q = qbox.value;
      var ts = terms(q);
      var sel = selection();
      var active = ts.length > 0 || Object.keys(sel).some(function (f) { return sel[f].length > 0; });
      var shown = 0;
      rows.forEach(function (row) {
        var e = byKey[row.getAttribute("data-key")];
        var ok = e ? textMatch(e.key, ts) && facetMatch(e, sel, null) : !active;
        row.hidden = !ok;
        if (ok) {
          shown++;
        }
      });
      groups.forEach(function (g) {
        var visible = g.querySelectorAll("[data-key]:not([hidden])").length;
        g.hidden = visible === 0;
        // A group heading's count says how many of its entries are shown.
        var count = g.querySelector(".count");
        if (count) {
          if (!count.hasAttribute("data-all")) {
            count.setAttribute("data-all", count.textContent);
          }
          count.textContent = active ? visible + " of " + count.getAttribute("data-all") : count.getAttribute("data-all");
        }
      });
      index.fields.forEach(function (f) {
        var n = {};
        entries.forEach(function (e) {
          if (textMatch(e.key, ts) && facetMatch(e, sel, f.name)) {
            n[e.tags[f.name]] = (n[e.tags[f.name]] || 0) + 1;
          }
        });
        boxes[f.name].forEach(function (b) {
          var c = n[b.value] || 0;
          b.count.textContent = "(" + c + ")";
          b.wrap.classList.toggle("facet-empty", c === 0);
        });
      });
      status.textContent = active
        ? "Showing " + shown + " of " + rows.length + " entries."
        : "Showing all " + rows.length + " entries.";
      if (writeState) {
        writeURL(q, sel);
      }
    }

    // Restore the state from the URL.
    var params = new URLSearchParams(window.location.search);
    qbox.value = params.get("q") || "";
    var restored = false;
    index.fields.forEach(function (f) {
      var want = params.getAll(f.name);
      boxes[f.name].forEach(function (b) {
        b.input.checked = want.indexOf(b.value) >= 0;
        restored = restored || b.input.checked;
      });
    });
    if (restored) {
      filters.open = true;
    }

    var timer = 0;
    qbox.addEventListener("input", function () {
      window.clearTimeout(timer);
      timer = window.setTimeout(function () { update(true); }, 150);
    });
    facets.addEventListener("change", function () { update(true); });
    reset.addEventListener("click", function () {
      qbox.value = "";
      index.fields.forEach(function (f) {
        boxes[f.name].forEach(function (b) { b.input.checked = false; });
      });
      update(true);
      qbox.focus();
    });
    update(false);
    list.setAttribute("data-search-ready", "true");
  }

  window.fetch(indexURL, { credentials: "same-origin" })
    .then(function (r) {
      if (!r.ok) {
        throw new Error("search index: HTTP " + r.status);
      }
      return r.json();
    })
    .then(start)
    .catch(function (err) {
      // The page still lists every entry; report for the browser tests.
      window.console.error(String(err));
    });
})();
