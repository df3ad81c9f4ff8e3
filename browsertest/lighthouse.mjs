// lighthouse.mjs audits several URLs with the pinned Lighthouse (its Node
// API) in one Chromium and one Node process, and prints one JSON report
// per line, in the order of the URLs; TestLighthouse reads them. The
// Lighthouse CLI started a Node process and a Chromium for every page (a
// few seconds of CPU each before any audit). Chromium is started by
// chrome-launcher, as the CLI starts it, with the default flags it adds
// and the flags given (the browser tests' own); Lighthouse resets the
// origin's storage and cache before each page, as it did in a fresh
// profile. chrome-launcher is Lighthouse's own dependency, pinned by
// package-lock.json.
//
//	CHROME_PATH=... node lighthouse.mjs FLAGS CATEGORIES URL...
//
// FLAGS are Chromium's flags, space-separated; CATEGORIES the categories
// to run, comma-separated.
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';

const [chromeFlags, categories, ...urls] = process.argv.slice(2);
const chrome = await chromeLauncher.launch({ chromeFlags: chromeFlags.split(' ').filter(Boolean) });
try {
  for (const url of urls) {
    // The full-page screenshot only illustrates the HTML report: no
    // category's score or audit the test reads comes from it.
    const result = await lighthouse(url, {
      port: chrome.port, output: 'json', logLevel: 'error',
      onlyCategories: categories.split(','), disableFullPageScreenshot: true,
    });
    process.stdout.write(JSON.stringify(JSON.parse(result.report)) + '\n');
  }
} finally {
  chrome.kill();
}
