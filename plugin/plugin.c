/* placeholder until the plugin lands */
int dcfg_record_plugin_placeholder;
