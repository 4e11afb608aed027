// The machine has no route to Google's browser downloads: puppeteer must never try to fetch a
// browser at install time. The system Chromium (Debian package `chromium`) is used instead.
module.exports = {
  skipDownload: true,
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
};
