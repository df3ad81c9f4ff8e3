// Progressive enhancement for entry pages: "Copy" and "Download" buttons
// next to each BibTeX block. The download is made in the page from the
// block's text (a Blob), so the site needs no .bib file per entry. Without
// JavaScript both buttons stay hidden; the block can be selected, and
// papers.bib holds every entry.
(function () {
  "use strict";
  if (navigator.clipboard) {
    document.querySelectorAll("button.copy[data-copy]").forEach(function (btn) {
      var src = document.getElementById(btn.getAttribute("data-copy"));
      if (!src) {
        return;
      }
      btn.hidden = false;
      btn.addEventListener("click", function () {
        navigator.clipboard.writeText(src.textContent).then(function () {
          btn.textContent = "Copied";
          setTimeout(function () { btn.textContent = "Copy"; }, 2000);
        }, function () {
          btn.textContent = "Copy failed";
        });
      });
    });
  }
  if (window.Blob && window.URL && URL.createObjectURL) {
    document.querySelectorAll("button.download[data-download]").forEach(function (btn) {
      var src = document.getElementById(btn.getAttribute("data-download"));
      if (!src) {
        return;
      }
      btn.hidden = false;
      btn.addEventListener("click", function () {
        var url = URL.createObjectURL(new Blob([src.textContent], {type: "application/x-bibtex"}));
        var a = document.createElement("a");
        a.href = url;
        a.download = btn.getAttribute("data-filename") || "entry.bib";
        document.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(function () { URL.revokeObjectURL(url); }, 0);
      });
    });
  }
})();
