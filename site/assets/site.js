// Progressive enhancement for entry pages: a "Copy" button next to each
// BibTeX block. Without JavaScript the button stays hidden and the block can
// be selected or downloaded as a .bib file.
(function () {
  "use strict";
  if (!navigator.clipboard) {
    return;
  }
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
})();
