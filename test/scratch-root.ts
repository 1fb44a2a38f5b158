/** The variable through which test/global-setup.ts tells the test workers where their run's scratch folder is. */
export const SCRATCH_ROOT_VARIABLE = 'DUMPSLEUTH_TEST_SCRATCH';
