// search.js adds free-text search and facets to the papers page.
//
// Without it the page lists its entries in #paper-list; each entry element
// carries data-key="KEY". With it, a search form appears above the list;
// while a query or filter is active, the entries that match are drawn from
// the index into a results list in the list's place (the first 200, then
// more on demand), so that the page stays fast whatever the corpus' size.
// The rules are those of the Go package site/search (Index.Match), which
// the browser tests use to know the right answer:
//   - free text: the query is split on white space, lower-cased; every term
//     must occur in the title, authors, key, venue, one-liner or notes (or,
//     on the survey's own list, where the survey names the entry);
//   - facets: OR within a field, AND across fields.
// Each checkbox shows how many entries it would leave given the query and
// the other fields' selections. The state lives in the query string
// (?q=…&credit_granularity=message), so a view can be bookmarked and is
// restored on reload. All text from the index is untrusted and is inserted
// with textContent only.
//
// Three buttons download the entries shown, in index (CSV) order, built
// here from the index: BibTeX (each entry's source from search-bib.json,
// fetched on the first click; entries without BibTeX are named in a
// comment), CSV and JSON. The file name carries the filter, e.g.
// papers-q-grpo__credit_granularity-message.csv.
//
// Every keystroke counts: the form and the box work before the index has
// loaded. What the reader types, pastes or composes (IME) meanwhile stays
// in the box, the live region says the index is loading, and the search
// applies to whatever the box holds when the index arrives. A query in
// the address is put in the box at once. The list carries
// data-search-ready once the index is in and the list agrees with the box.
(function () {
  "use strict";
  var list = document.getElementById("paper-list");
  if (!list || !window.fetch || !window.URLSearchParams) {
    return;
  }
  var indexURL = new URL(list.getAttribute("data-search-index") || "search-index.json", window.location.href);
  var bibURL = new URL("search-bib.json", indexURL);

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
    return [e.title, e.authors, e.key, e.venue, e.one_liner, e.notes, e.survey || ""].join("\n").toLowerCase();
  }

  // fileStem names a download after the filter: the query's terms and
  // each field's selected values, reduced to safe file-name characters.
  function fileStem(ts, sel) {
    var parts = [];
    if (ts.length > 0) {
      parts.push("q-" + ts.join("-"));
    }
    Object.keys(sel).forEach(function (f) {
      if (sel[f].length > 0) {
        parts.push(f + "-" + sel[f].join("-"));
      }
    });
    var s = parts.join("__").toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/-{2,}/g, "-").replace(/^[-_]+|[-_]+$/g, "");
    if (s.length > 100) {
      s = s.slice(0, 100).replace(/[-_]+$/, "");
    }
    return "papers-" + (s || "all");
  }

  // exported is an index entry as the JSON and CSV downloads give it, its
  // page's address made absolute.
  function exported(e) {
    var out = {};
    Object.keys(e).forEach(function (k) { out[k] = e[k]; });
    out.url = e.url ? new URL(e.url, indexURL).href : "";
    return out;
  }

  // csvCell quotes a cell (RFC 4180) and defuses a formula: a spreadsheet
  // would run a cell that starts with =, +, -, @, tab or CR, so such a
  // cell gets a leading apostrophe.
  function csvCell(v) {
    var s = v === undefined || v === null ? "" : String(v);
    if (/^[=+\-@\t\r]/.test(s)) {
      s = "'" + s;
    }
    return /[",\r\n]/.test(s) ? "\"" + s.replace(/"/g, "\"\"") + "\"" : s;
  }

  var csvColumns = ["key", "title", "authors", "year", "venue", "url", "one_liner", "notes"];

  function toCSV(list) {
    var fields = loaded.fields.map(function (f) { return f.name; });
    var linkCols = (loaded.links || []).map(function (l) { return l.name; });
    var lines = [csvColumns.concat(fields, linkCols).join(",")];
    list.forEach(function (e) {
      var x = exported(e);
      lines.push(csvColumns.map(function (c) { return csvCell(x[c]); })
        .concat(fields.map(function (f) { return csvCell(e.tags[f]); }),
          linkCols.map(function (l) { return csvCell((e.links || {})[l]); })).join(","));
    });
    return lines.join("\r\n") + "\r\n";
  }

  var bibPromise = null;
  function bibTeX() {
    if (!bibPromise) {
      bibPromise = window.fetch(bibURL.href, { credentials: "same-origin" }).then(function (r) {
        if (!r.ok) {
          throw new Error("BibTeX: HTTP " + r.status);
        }
        return r.json();
      });
      bibPromise.catch(function () { bibPromise = null; });
    }
    return bibPromise;
  }

  // save offers text as a download named after the button's filter.
  function save(button, type, text) {
    var url = URL.createObjectURL(new Blob([text], { type: type + ";charset=utf-8" }));
    var a = el("a", { href: url, download: button.getAttribute("data-filename") });
    a.hidden = true;
    document.body.appendChild(a);
    a.click();
    a.remove();
    window.setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  }

  // The form is built at once, before the index has loaded, so that the
  // list does not move when the index is ready: the facets fill the closed
  // "Filter by tag" group then. The form: a search box, one fieldset of
  // checkboxes per field (in the group), a reset button, the downloads and
  // a live region with the result count.
  var form = el("form", { id: "paper-search", role: "search", "class": "paper-search" });
  form.addEventListener("submit", function (ev) { ev.preventDefault(); });
  var qid = "paper-search-q";
  form.appendChild(el("label", { "for": qid, "class": "search-label" }, "Search titles, authors, venues, notes"));
  var qbox = el("input", { id: qid, type: "search", name: "q", autocomplete: "off", spellcheck: "false" });
  var initial = new URLSearchParams(window.location.search);
  qbox.value = initial.get("q") || "";
  form.appendChild(qbox);
  var facets = el("div", { "class": "facets" });
  var filters = el("details", { "class": "facet-group" });
  filters.appendChild(el("summary", null, "Filter by tag"));
  filters.appendChild(facets);
  form.appendChild(filters);
  var reset = el("button", { type: "button", "class": "search-reset" }, "Clear search and filters");
  form.appendChild(reset);
  var exporter = el("div", { "class": "search-export", role: "group", "aria-labelledby": "search-export-label" });
  exporter.appendChild(el("span", { id: "search-export-label", "class": "search-export-label" }, "Download the entries shown:"));
  var downloads = {};
  [["bib", "BibTeX"], ["csv", "CSV"], ["json", "JSON"]].forEach(function (f) {
    var b = el("button", { type: "button", "class": "search-download", "data-format": f[0] }, f[1]);
    exporter.appendChild(document.createTextNode(" "));
    exporter.appendChild(b);
    downloads[f[0]] = b;
  });
  form.appendChild(exporter);
  var status = el("p", { id: "search-status", role: "status", "aria-live": "polite", "class": "search-status" });
  form.appendChild(status);
  // The page keeps the form's place (search-slot, sized by reader.css
  // when scripting is on), so that nothing moves when it appears.
  var slot = document.getElementById("paper-search-slot");
  if (slot) {
    slot.appendChild(form);
  } else {
    list.parentNode.insertBefore(form, list);
  }

  var loaded = null;
  var shownEntries = [];
  // edited is set once the reader changed the box; update is the search,
  // set by start when the index has loaded.
  var edited = false;
  var update = null;

  // Typing updates at once; keystrokes that arrive while an update is
  // pending are folded into it. Before the index has loaded a keystroke
  // only starts the load: start applies the box as it then is. While an
  // IME composes, the box holds unfinished text; the search applies when
  // the composition ends.
  var pending = false;
  function changed() {
    edited = true;
    if (!update) {
      load();
      return;
    }
    if (!pending) {
      pending = true;
      window.setTimeout(function () {
        pending = false;
        update(true);
      }, 0);
    }
  }
  qbox.addEventListener("input", function (ev) {
    if (!ev.isComposing) {
      changed();
    }
  });
  qbox.addEventListener("compositionend", changed);

  // resultLimit is how many results are drawn at once, as many as a page
  // of the list holds (site.PapersPerPage): the list of a 100,000-entry
  // corpus is never put into the page whole, and a phone scrolls no
  // further than through a page. "Show more" draws the next ones.
  var resultLimit = 50;

  function start(index) {
    loaded = index;
    var entries = index.entries;
    var hay = entries.map(haystack);
    var fieldNames = index.fields.map(function (f) { return f.name; });
    // A multi-valued field's tag is "a; b": the entry has each value.
    // A nested field's value stands for the values below it too.
    var multiple = {};
    var parents = {};
    index.fields.forEach(function (f) { multiple[f.name] = !!f.multiple; parents[f.name] = f.parents || {}; });
    function valuesOf(e, f) {
      var t = e.tags[f];
      var vs = !multiple[f] ? [t] : (t || "").split(";").map(function (s) { return s.trim(); }).filter(function (s) { return s !== ""; });
      for (var i = 0; i < vs.length; i++) {
        var p = parents[f][vs[i]];
        if (p !== undefined && vs.indexOf(p) < 0) {
          vs.push(p);
        }
      }
      return vs;
    }
    function wants(w, e, f) {
      return valuesOf(e, f).some(function (v) { return w[v]; });
    }
    function tally(c, e, f) {
      valuesOf(e, f).forEach(function (v) { c[v] = (c[v] || 0) + 1; });
    }
    // Without a query or filter the page shows its own list, grouped by
    // category; with one, the entries that match are drawn from the index
    // into a results list in its place, in index (CSV) order.
    var results = el("ul", { id: "search-results", "class": "entries search-results" });
    results.hidden = true;
    var more = el("button", { type: "button", "class": "search-more" }, "Show more");
    more.hidden = true;
    list.parentNode.insertBefore(more, list.nextSibling);
    list.parentNode.insertBefore(results, more);
    var limit = resultLimit;

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

    function selection() {
      var sel = {};
      index.fields.forEach(function (f) {
        sel[f.name] = boxes[f.name].filter(function (b) { return b.input.checked; }).map(function (b) { return b.value; });
      });
      return sel;
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

    // item draws one result as the page's own list does: title linked to
    // the entry's page, then year, venue and authors, and the one-liner.
    // Text only.
    function item(e) {
      var li = el("li", { "class": "entry", "data-key": e.key });
      var h = el("h3", { "class": "entry-title" });
      var a = el("a", { href: e.url ? new URL(e.url, indexURL).href : "#" });
      a.appendChild(el("bdi", null, e.title)); // isolated: its direction stays its own
      h.appendChild(a);
      li.appendChild(h);
      li.appendChild(el("p", { "class": "meta" }, [e.year || "", e.venue, e.authors].filter(function (x) { return x !== ""; }).join(" · ")));
      if (e.one_liner) {
        li.appendChild(el("p", { "class": "one-liner" }, e.one_liner));
      }
      // The list's link columns (code, project, ...): web links only.
      var ls = (index.links || []).filter(function (l) { return e.links && /^https?:\/\//.test(e.links[l.name] || ""); });
      if (ls.length > 0) {
        var p = el("p", { "class": "entry-links" });
        ls.forEach(function (l, i) {
          if (i > 0) {
            p.appendChild(document.createTextNode(" · "));
          }
          p.appendChild(el("a", { href: e.links[l.name] }, l.label));
        });
        li.appendChild(p);
      }
      return li;
    }

    function draw(active) {
      list.hidden = active;
      results.hidden = !active;
      results.textContent = "";
      if (!active) {
        more.hidden = true;
        return;
      }
      var frag = document.createDocumentFragment();
      shownEntries.slice(0, limit).forEach(function (e) { frag.appendChild(item(e)); });
      results.appendChild(frag);
      more.hidden = shownEntries.length <= limit;
      more.textContent = "Show more (" + (shownEntries.length - Math.min(limit, shownEntries.length)) + " left)";
    }

    // update filters in one pass over the index: an entry that matches the
    // query and every selected field is shown and counts for every field;
    // one that fails exactly one selected field counts for that field only
    // (the count beside a value is what checking it would leave).
    update = function (writeState) {
      var q = qbox.value;
      var ts = terms(q);
      var sel = selection();
      var picked = fieldNames.filter(function (f) { return sel[f].length > 0; });
      var want = {};
      picked.forEach(function (f) {
        want[f] = {};
        sel[f].forEach(function (v) { want[f][v] = true; });
      });
      var active = ts.length > 0 || picked.length > 0;
      var counts = {};
      fieldNames.forEach(function (f) { counts[f] = {}; });
      var shown = [];
      for (var i = 0; i < entries.length; i++) {
        var h = hay[i];
        var ok = true;
        for (var k = 0; k < ts.length; k++) {
          if (h.indexOf(ts[k]) < 0) {
            ok = false;
            break;
          }
        }
        if (!ok) {
          continue;
        }
        var e = entries[i];
        var failed = null;
        var nfail = 0;
        for (var j = 0; j < picked.length && nfail < 2; j++) {
          if (!wants(want[picked[j]], e, picked[j])) {
            failed = picked[j];
            nfail++;
          }
        }
        if (nfail === 0) {
          shown.push(e);
          for (var m = 0; m < fieldNames.length; m++) {
            tally(counts[fieldNames[m]], e, fieldNames[m]);
          }
        } else if (nfail === 1) {
          tally(counts[failed], e, failed);
        }
      }
      fieldNames.forEach(function (f) {
        boxes[f].forEach(function (b) {
          var c = counts[f][b.value] || 0;
          b.count.textContent = "(" + c + ")";
          b.wrap.classList.toggle("facet-empty", c === 0);
        });
      });
      shownEntries = shown;
      limit = resultLimit;
      draw(active);
      var stem = fileStem(ts, sel);
      Object.keys(downloads).forEach(function (f) {
        downloads[f].setAttribute("data-filename", stem + "." + f);
      });
      status.textContent = active
        ? "Showing " + shown.length + " of " + entries.length + " entries."
        : "Showing all " + entries.length + " entries.";
      if (writeState) {
        writeURL(q, sel);
      }
    };

    more.addEventListener("click", function () {
      limit += resultLimit;
      draw(true);
    });

    // Restore the facets from the URL; the box already holds the URL's
    // query, or what the reader typed since.
    var params = new URLSearchParams(window.location.search);
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

    downloads.json.addEventListener("click", function () {
      save(downloads.json, "application/json", JSON.stringify(shownEntries.map(exported), null, 2) + "\n");
    });
    downloads.csv.addEventListener("click", function () {
      save(downloads.csv, "text/csv", toCSV(shownEntries));
    });
    downloads.bib.addEventListener("click", function () {
      var picked = shownEntries.slice();
      bibTeX().then(function (bib) {
        var missing = [];
        var out = [];
        picked.forEach(function (e) {
          if (Object.prototype.hasOwnProperty.call(bib, e.key)) {
            out.push(bib[e.key]);
          } else {
            missing.push(e.key);
          }
        });
        var text = missing.length > 0 ? "% No BibTeX for: " + missing.join(", ") + "\n\n" : "";
        save(downloads.bib, "application/x-bibtex", text + out.join("\n\n") + "\n");
      }).catch(function (err) {
        window.console.error(String(err));
      });
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
    // What was typed before the index arrived is applied now, and put in
    // the address; an untouched box leaves the address as it came.
    update(edited);
    list.removeAttribute("aria-busy");
    list.setAttribute("data-search-ready", "true");
  }

  // The index (52 MB at 100,000 entries) loads only when the reader turns
  // to the search: the form is focused, pointed at or its filters opened,
  // or the address already carries a search.
  var requested = false;
  function load() {
    if (requested) {
      return;
    }
    requested = true;
    status.textContent = "Loading the search index…";
    list.setAttribute("aria-busy", "true");
    window.fetch(indexURL.href, { credentials: "same-origin" })
      .then(function (r) {
        if (!r.ok) {
          throw new Error("search index: HTTP " + r.status);
        }
        return r.json();
      })
      .then(start)
      .catch(function (err) {
        // The page still lists its entries; report for the browser tests.
        status.textContent = "The search index could not be loaded.";
        list.removeAttribute("aria-busy");
        window.console.error(String(err));
      });
  }
  form.addEventListener("focusin", load);
  form.addEventListener("pointerover", load);
  filters.addEventListener("toggle", load);
  if (window.location.search !== "") {
    load();
  }
})();
