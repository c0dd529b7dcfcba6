/** Product facts shown in the footer. */
export const PRODUCT_NAME = 'Spool';
export const APP_VERSION = '0.0.1-alpha';
export const SOURCE_URL = 'https://github.com/spool-appliance/spool';
export const ISSUES_URL = 'https://github.com/spool-appliance/spool/issues';
