// Removes dist/ before a build, so a module that moved or was deleted in src/ is not shipped from an older build.
import { rmSync } from 'node:fs';
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
