/**
 * Whether a file is a dump by itself (thread dumps, or a Java heap dump), as identify says from its
 * head: for sorting the files of a folder (batch's folder of incidents) before anything is analysed.
 * It is the answer the analysis routes on, so batch and analyze cannot disagree about what a file is;
 * the full read may still find no dump in it.
 */
import { InputError } from '../errors.js';
import { isDumpFormat } from '../input/formats.js';
import { identifyInput } from '../input/identify.js';

export async function looksLikeDump(path: string): Promise<boolean> {
  try {
    return isDumpFormat((await identifyInput(path)).format);
  } catch (e) {
    if (e instanceof InputError) return false;
    throw e;
  }
}
