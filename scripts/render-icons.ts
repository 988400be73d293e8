// Renders resources/icon.svg to the PNGs electron-builder needs, with Debian's Chromium:
// resources/icon.png (512) and resources/icons/<n>x<n>.png for Linux. Run: npx tsx scripts/render-icons.ts
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { launchChromium } from '../e2e/support/chromium';

const SIZES = [16, 24, 32, 48, 64, 128, 256, 512] as const;
const resources = resolve(__dirname, '../resources');

async function main(): Promise<void> {
  const svg = await readFile(join(resources, 'icon.svg'), 'utf8');
  await mkdir(join(resources, 'icons'), { recursive: true });
  const browser = await launchChromium();
  try {
    for (const size of SIZES) {
      const page = await browser.newPage({
        viewport: { width: size, height: size },
        deviceScaleFactor: 1,
      });
      const sized = svg.replace(/width="512" height="512"/, `width="${size}" height="${size}"`);
      await page.setContent(
        `<html><body style="margin:0;background:transparent">${sized}</body></html>`,
      );
      const target = join(resources, 'icons', `${size}x${size}.png`);
      await page.screenshot({ path: target, omitBackground: true });
      if (size === 512)
        await page.screenshot({ path: join(resources, 'icon.png'), omitBackground: true });
      await page.close();
      console.log(`rendered ${target}`);
    }
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
