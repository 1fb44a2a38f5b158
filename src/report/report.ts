/** The report: what every renderer draws. Built once from the Model and the findings. */
import type { Finding } from '../model/findings.js';
import type { Model } from '../model/model.js';

export const REPORT_SCHEMA = 'dumpsleuth.report/1';

export interface Report {
  readonly tool: { readonly name: 'dumpsleuth'; readonly version: string };
  readonly model: Model;
  readonly findings: readonly Finding[];
}
