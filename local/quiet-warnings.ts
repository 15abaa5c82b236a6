/** The SDK warns once per process that Node 20 support ends in 2027; Lambda runs Node 22, so locally it is noise. */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
